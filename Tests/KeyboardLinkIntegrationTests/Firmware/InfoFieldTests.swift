import Foundation
import KeyboardLink
import Testing

/// `kblink info --json` (the real binary) for each simulated keyboard shows exactly what the simulator serves.
///
/// One daemon serves the three keyboards awake; each keyboard's JSON is read once and every field is its own test.
@Suite("kblink info: every field of every simulated keyboard")
struct InfoFieldTests {
    /// One field of one keyboard's `kblink info --json` and the JSON text it must have.
    struct Field: Sendable, CustomTestStringConvertible {
        var keyboard: String
        var path: [String]
        var expected: String

        init(_ keyboard: String, _ path: String, _ expected: String) {
            self.keyboard = keyboard
            self.path = path.split(separator: ".").map(String.init)
            self.expected = expected
        }

        var testDescription: String { "\(keyboard) \(path.joined(separator: "."))" }
    }

    /// The keyboards awake, so that each is read.
    static var devices: [SimulatedDevice] {
        var vgn = SimulatedDevice.vgn98Pro
        vgn.connected = true
        var corne = SimulatedDevice.corneSplit
        corne.gatt?.readDelay = .milliseconds(5)
        return [.aulaF87, vgn, corne]
    }

    /// Reads each keyboard's JSON once, after its first refresh.
    actor Outputs {
        static let shared = Outputs()
        private var task: Task<[String: String], any Error>?

        /// The standard output of `kblink info KEYBOARD --json`.
        func text(_ keyboard: String) async throws -> String {
            if task == nil {
                task = Task {
                    try await withFirmwareDaemon(devices: InfoFieldTests.devices) { daemon in
                        var outputs: [String: String] = [:]
                        for device in InfoFieldTests.devices {
                            #expect(try await daemon.waitForRead(device.address), "\(device.name) was never read")
                            let result = try await daemon.kblink(["info", device.address.description, "--json"])
                            #expect(result.status == 0, "\(result.standardError)")
                            outputs[device.address.description] = result.standardOutput
                        }
                        return outputs
                    }
                }
            }
            guard let task else { return "" }
            return try #require(try await task.value[keyboard])
        }

        /// The decoded output for one keyboard.
        nonisolated func json(_ keyboard: String) async throws -> [String: Any] {
            let text = try await text(keyboard)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(text)")
        }
    }

    static let aula = SimulatedDevice.aulaF87.address.description
    static let vgn = SimulatedDevice.vgn98Pro.address.description
    static let corne = SimulatedDevice.corneSplit.address.description

    static let fields: [Field] = [
        // Aula F87: complete Device Information; its PnP ID disagrees with its Modalias and wins.
        Field(aula, "name", #""Aula F87""#),
        Field(aula, "address", #""F8:70:00:00:00:87""#),
        Field(aula, "connected", "true"),
        Field(aula, "driver", #""none""#),
        Field(aula, "manufacturer", #""AULA""#),
        Field(aula, "model", #""F87""#),
        Field(aula, "serial", #""F87-2024-000187""#),
        Field(aula, "firmwareRevision", #""1.0.2""#),
        Field(aula, "hardwareRevision", #""F87 rev B""#),
        Field(aula, "softwareRevision", #""2.4.1""#),
        Field(aula, "vendor.source", #""usb""#),
        Field(aula, "vendor.id", #""0x0c45""#),
        Field(aula, "vendor.name", #""Microdia""#),
        Field(aula, "product.id", #""0x8009""#),
        Field(aula, "product.version", #""0x0105""#),
        Field(aula, "battery", #"[{"level":85,"part":"main"}]"#),
        Field(
            aula, "notes",
            #"["PnP ID (usb:v0C45p8009d0105) disagrees with Modalias (usb:v258Ap010Cd0102); using the PnP ID"]"#),
        // VGN 98Pro: no Device Information Service; identity from Modalias (a Bluetooth SIG company ID).
        Field(vgn, "name", #""VGN 98Pro""#),
        Field(vgn, "manufacturer", "null"),
        Field(vgn, "model", "null"),
        Field(vgn, "serial", "null"),
        Field(vgn, "firmwareRevision", "null"),
        Field(vgn, "hardwareRevision", "null"),
        Field(vgn, "softwareRevision", "null"),
        Field(vgn, "vendor.source", #""bluetooth""#),
        Field(vgn, "vendor.id", #""0x05ac""#),
        Field(vgn, "vendor.name", #""GoerTek Dynaudio Co., Ltd.""#),
        Field(vgn, "product.id", #""0x0256""#),
        Field(vgn, "product.version", #""0x0001""#),
        Field(vgn, "battery", #"[{"level":60,"part":"main"}]"#),
        Field(vgn, "notes", "[]"),
        // Corne Split (ZMK): one battery per half, named by user descriptions.
        Field(corne, "name", #""Corne Split""#),
        Field(corne, "manufacturer", #""ZMK Project""#),
        Field(corne, "model", #""Corne""#),
        Field(corne, "serial", #""5E1F0C2A9B3D""#),
        Field(corne, "firmwareRevision", #""0.3.0""#),
        Field(corne, "hardwareRevision", #""nice!nano v2""#),
        Field(corne, "softwareRevision", #""Zephyr 3.5.0""#),
        Field(corne, "vendor.source", #""usb""#),
        Field(corne, "vendor.id", #""0x1d50""#),
        Field(corne, "vendor.name", #""OpenMoko, Inc.""#),
        Field(corne, "product.id", #""0x615e""#),
        Field(corne, "product.version", #""0x0300""#),
        Field(corne, "battery", #"[{"level":90,"part":"left"},{"level":75,"part":"right"}]"#),
        Field(corne, "notes", "[]"),
    ]

    @Test(arguments: fields)
    func field(_ field: Field) async throws {
        let json = try await Outputs.shared.json(field.keyboard)
        #expect(try jsonText(json, field.path) == field.expected)
    }

    @Test(arguments: [aula, vgn, corne])
    func readTimeIsRecentAndConsistent(_ keyboard: String) async throws {
        let json = try await Outputs.shared.json(keyboard)
        let readAt = try #require(json["readAt"] as? String)
        let date = try Date(readAt, strategy: .iso8601)
        #expect(abs(date.timeIntervalSinceNow) < 600, "read at \(readAt)")
        let firmware = try #require(json["firmware"] as? [String: String])
        #expect(firmware["readAt"] == readAt)
        #expect((json["ageSeconds"] as? Int).map { $0 >= 0 } == true)
    }
}
