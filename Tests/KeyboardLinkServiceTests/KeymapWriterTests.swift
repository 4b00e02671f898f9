import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap
import Testing

@testable import KeyboardLinkService

/// What the keymap writer takes from BlueZ to find a keyboard's hidraw node, and the log line of a re-apply.
@Suite("KeymapWriter")
struct KeymapWriterTests {
    static let address = "C8:7F:54:0A:1B:2C"
    static let adapter = "00:1A:7D:DA:71:13"
    static let keyboard = BluetoothHIDKeyboard(
        address: BluetoothAddress(validating: address)!, adapter: BluetoothAddress(validating: adapter)!,
        productIDs: .init(vendor: 0x320F, product: 0x5088))

    @Test("kblinkd looks for the node with BlueZ's adapter address and Modalias IDs of the keyboard")
    func keyboardFromBlueZ() throws {
        let adapterPath = ObjectPath("/org/bluez/hci1")
        let devicePath = ObjectPath("/org/bluez/hci1/dev_C8_7F_54_0A_1B_2C")
        var snapshot = BlueZModel.Snapshot()
        snapshot.adapters[adapterPath] = BlueZAdapter(
            path: adapterPath, interfaces: [BlueZ.adapterInterface.rawValue: ["Address": .string(Self.adapter)]])
        var properties: [String: DBusValue] = [
            "Address": .string(Self.address), "Adapter": .objectPath(adapterPath),
            "Modalias": .string("usb:v320Fp5088d0100"),
        ]
        snapshot.devices[devicePath] = BlueZDevice(
            path: devicePath, interfaces: [BlueZ.deviceInterface.rawValue: properties])
        let device = try #require(snapshot.devices[devicePath])
        let state = try #require(KeyboardState(device: device))
        #expect(KeymapWriter.hidKeyboard(state, in: snapshot) == Self.keyboard)

        // No Modalias, or one that does not parse: the IDs are unknown, not zero.
        for modalias: DBusValue? in [nil, .string("usb:v320F")] {
            properties["Modalias"] = modalias
            snapshot.devices[devicePath] = BlueZDevice(
                path: devicePath, interfaces: [BlueZ.deviceInterface.rawValue: properties])
            var expected = Self.keyboard
            expected.productIDs = nil
            #expect(KeymapWriter.hidKeyboard(state, in: snapshot) == expected)
        }
        // An adapter BlueZ no longer lists: unknown, so no node will match.
        snapshot.adapters = [:]
        #expect(KeymapWriter.hidKeyboard(state, in: snapshot).adapter == nil)
    }

    @Test("the re-apply log line names at most five drifted bindings and counts the rest")
    func summary() throws {
        func outcome(_ count: Int) throws -> DriverPush.Outcome {
            let keys = ["ESC", "F1", "F2", "F3", "F4", "F5", "F6"]
            return DriverPush.Outcome(
                writes: try keys.prefix(count).map {
                    DriverKeyWrite(layer: 0, key: try KeyName($0), action: try KeyAction(parsing: "KC_A"))
                },
                previous: keys.prefix(count).map { _ in .action(.none) }, verified: true, saved: true, dryRun: false)
        }
        #expect(
            KeymapWriter.reapplySummary(try outcome(2))
                == "re-applied the profile: 2 binding(s) had drifted (layer 0 ESC KC_NO->KC_A, layer 0 F1 KC_NO->KC_A)")
        let long = KeymapWriter.reapplySummary(try outcome(7))
        #expect(long.hasPrefix("re-applied the profile: 7 binding(s) had drifted (layer 0 ESC KC_NO->KC_A, "))
        #expect(long.hasSuffix("layer 0 F4 KC_NO->KC_A, and 2 more)"))
        #expect(!long.contains("F5"))
    }
}
