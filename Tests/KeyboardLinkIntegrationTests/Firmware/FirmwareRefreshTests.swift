import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Refreshing firmware information through the daemon: parallel reads, malformed values, the cache, reconnects,
/// notifications and a keyboard that falls asleep in the middle.
@Suite("Firmware refresh, cache and kblink info", .serialized)
struct FirmwareRefreshTests {
    static let corne = SimulatedDevice.corneSplit.address
    static let aula = SimulatedDevice.aulaF87.address

    @Test("the reads of one refresh run in parallel (the simulator saw several in flight at once)")
    func readsRunInParallel() async throws {
        try await withFirmwareDaemon(devices: [.corneSplit]) { daemon in
            let read = try await daemon.waitForRead(Self.corne)
            #expect(read)
            let statistics = await daemon.bluez.gatt.statistics(for: Self.corne)
            // 7 Device Information values, 2 battery levels and their 2 user descriptions.
            #expect(statistics.reads == 11)
            #expect(statistics.maximumConcurrentReads > 1)
        }
    }

    @Test("a PnP ID that disagrees with Modalias wins, and the disagreement is logged")
    func pnpDisagreementIsLogged() async throws {
        try await withFirmwareDaemon(devices: [.aulaF87]) { daemon in
            #expect(try await daemon.waitForRead(Self.aula))
            let warnings = daemon.logLines.filter { $0.0 == .warning }.map(\.1)
            #expect(
                warnings.contains {
                    $0.contains("Aula F87") && $0.contains("PnP ID (usb:v0C45p8009d0105) disagrees with Modalias")
                })
            let info = try await daemon.service.firmwareInfo(for: Self.aula)
            #expect(
                info?.identity
                    == DeviceIdentity(source: .usb, vendorID: 0x0C45, productID: 0x8009, productVersion: 0x0105))
        }
    }

    @Test("malformed values give clear notes and no crash")
    func malformedValues() async throws {
        var aula = SimulatedDevice.aulaF87
        aula.gatt = SimulatedGATTProfile.aulaF87.withMalformedValues()
        try await withFirmwareDaemon(devices: [aula]) { daemon in
            #expect(try await daemon.waitForRead(Self.aula))
            let json = try await daemon.infoJSON("aula")
            let notes = try #require(json["notes"] as? [String])
            #expect(notes.contains("PnP ID has 5 bytes, expected 7; ignored"))
            #expect(notes.contains("serial number is not valid UTF-8"))
            #expect(notes.contains("battery level 250 is out of range"))
            // The serial is shown lossily, the identity falls back to Modalias, the battery to BlueZ's Battery1.
            #expect(json["serial"] as? String == "F87\u{FFFD}\u{FFFD}-1")
            #expect(try jsonText(json, ["vendor", "id"]) == #""0x258a""#)
            #expect(try jsonText(json, ["battery"]) == #"[{"level":85,"part":"main"}]"#)
            let text = try await daemon.kblink(["info", "aula"])
            #expect(text.status == 0)
            #expect(text.standardOutput.contains("Note:       battery level 250 is out of range"))
        }
    }

    @Test("a keyboard that disconnects in the middle of a refresh leaves the previous cache intact")
    func disconnectDuringRefresh() async throws {
        try await withFirmwareDaemon(devices: [.corneSplit]) { daemon in
            #expect(try await daemon.waitForRead(Self.corne))
            let before = try Data(contentsOf: URL(fileURLWithPath: daemon.cacheFile(Self.corne)))
            let infoBefore = try await daemon.service.firmwareInfo(for: Self.corne)
            await daemon.bluez.gatt.setValue(Array("CHANGED".utf8), of: .serialNumber, for: Self.corne)
            await daemon.bluez.gatt.setFaults(SimulatedGATTFaults(disconnectAtRead: 3), for: Self.corne)

            // The refresh did not happen: exit 1, with the cached information still printed.
            let json = try await daemon.infoJSON("corne", ["--refresh"], status: 1)
            #expect(try jsonText(json, ["refresh", "ok"]) == "false")
            let refreshError = (json["refresh"] as? [String: Any])?["error"] as? String
            #expect(
                refreshError?.contains("disconnected while its information was being read") == true,
                "\(refreshError ?? "no error")")
            #expect(json["serial"] as? String == "5E1F0C2A9B3D")
            let client = try await KBlinkClient.connect(to: daemon.bus.busAddress)
            #expect(try await eventually { try await !client.keyboard(matching: "corne").connected })
            await client.close()

            let after = try Data(contentsOf: URL(fileURLWithPath: daemon.cacheFile(Self.corne)))
            #expect(after == before)
            #expect(try await daemon.service.firmwareInfo(for: Self.corne) == infoBefore)
            let leftovers = try FileManager.default.contentsOfDirectory(
                atPath: (daemon.cacheFile(Self.corne) as NSString).deletingLastPathComponent)
            #expect(leftovers == [Self.corne.description + ".json"])
        }
    }

    @Test("the cache fills Firmware and Battery at start while the keyboard sleeps; --refresh says it sleeps")
    func cacheLoadedAtStart() async throws {
        try await withFirmwareDaemon(devices: [.corneSplit]) { daemon in
            #expect(try await daemon.waitForRead(Self.corne))
            let first = try await daemon.infoJSON("corne")
            await daemon.stopService()
            try await daemon.bluez.setConnected(Self.corne, false)
            try await daemon.startService()

            let cached = try await daemon.infoJSON("corne")
            #expect(cached["connected"] as? Bool == false)
            for key in ["serial", "model", "firmwareRevision", "readAt"] {
                #expect(cached[key] as? String == first[key] as? String, "\(key)")
            }
            #expect(try jsonText(cached, ["battery"]) == #"[{"level":90,"part":"left"},{"level":75,"part":"right"}]"#)

            let refreshed = try await daemon.kblink(["info", "corne", "--refresh"])
            // Asleep: the cached information is shown, and the refresh asked for did not happen (exit 1).
            #expect(refreshed.status == 1)
            #expect(refreshed.standardError.contains("Corne Split is not connected (asleep or out of range)"))
            #expect(refreshed.standardError.contains("kept the information read"))
            #expect(refreshed.standardOutput.contains("Serial:     5E1F0C2A9B3D"))
        }
    }

    @Test("a corrupt cache file is moved aside and logged, not fatal")
    func corruptCache() async throws {
        var corne = SimulatedDevice.corneSplit
        corne.connected = false
        let state = NSTemporaryDirectory() + "kblink-fw-" + UUID().uuidString
        let cache = FirmwareCache(stateDirectory: state)
        try FileManager.default.createDirectory(atPath: cache.directory, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: cache.path(for: Self.corne)))
        try await withFirmwareDaemon(devices: [corne], stateDirectory: state) { daemon in
            #expect(FileManager.default.fileExists(atPath: cache.quarantinePath(for: Self.corne)))
            #expect(!FileManager.default.fileExists(atPath: cache.path(for: Self.corne)))
            #expect(daemon.logLines.contains { $0.0 == .warning && $0.1.contains("firmware cache unreadable") })
            let json = try await daemon.infoJSON("corne")
            #expect(try jsonText(json, ["readAt"]) == "null")
            // Reconnecting rebuilds it.
            try await daemon.bluez.setConnected(Self.corne, true)
            #expect(try await daemon.waitForRead(Self.corne))
            #expect(await eventually { FileManager.default.fileExists(atPath: cache.path(for: Self.corne)) })
        }
    }

    @Test("each reconnect refreshes the information")
    func reconnectRefreshes() async throws {
        try await withFirmwareDaemon(devices: [.aulaF87]) { daemon in
            #expect(try await daemon.waitForRead(Self.aula))
            await daemon.bluez.gatt.setValue(Array("1.1.0".utf8), of: .firmwareRevision, for: Self.aula)
            try await daemon.bluez.setConnected(Self.aula, false)
            try await daemon.bluez.setConnected(Self.aula, true)
            let service = try daemon.service
            #expect(await eventually { await service.firmwareInfo(for: Self.aula)?.firmwareRevision == "1.1.0" })
            let json = try await daemon.infoJSON("aula")
            #expect(json["firmwareRevision"] as? String == "1.1.0")
        }
    }

    @Test("RefreshInfo updates the Firmware property with PropertiesChanged")
    func refreshEmitsPropertiesChanged() async throws {
        try await withFirmwareDaemon(devices: [.aulaF87]) { daemon in
            #expect(try await daemon.waitForRead(Self.aula))
            await daemon.bluez.gatt.setValue(Array("2.0.0".utf8), of: .firmwareRevision, for: Self.aula)
            let client = try await KBlinkClient.connect(to: daemon.bus.busAddress)
            let events = try await client.events()
            let keyboard = try await client.keyboard(matching: "aula")
            try await client.call(KBlinkContract.Keyboard.refreshInfo, on: keyboard)
            let changed = await first(of: events) { message in
                guard message.member?.rawValue == "PropertiesChanged", message.body.count == 3,
                    case .dictionary(_, _, let entries)? = message.body[1].stringDictionary?["Firmware"]?.unwrapped
                else { return false }
                return entries.contains { $0.key.stringValue == "FirmwareRevision" && $0.value.stringValue == "2.0.0" }
            }
            #expect(changed != nil)
            await client.close()
        }
    }

    @Test("RefreshInfo twice in a row reads the keyboard once; once the last read is 5 s old, it reads again")
    func refreshWindow() async throws {
        let clock = SteppedClock()
        let window = KeyboardLinkService.Options.defaultFirmwareRefreshWindow
        try await withFirmwareDaemon(
            devices: [.corneSplit],
            configure: {
                $0.firmwareRefreshWindow = window
                $0.monotonicNow = clock.now
            }
        ) { daemon in
            #expect(try await daemon.waitForRead(Self.corne))
            let gatt = daemon.bluez.gatt
            let client = try await KBlinkClient.connect(to: daemon.bus.busAddress)
            let keyboard = try await client.keyboard(matching: "corne")
            // 7 Device Information values, 2 battery levels and their 2 user descriptions.
            let perRead = 11
            let connected = await gatt.statistics(for: Self.corne).reads
            #expect(connected == perRead)

            // Within the window of the read on connection: answered from it.
            try await client.call(KBlinkContract.Keyboard.refreshInfo, on: keyboard)
            #expect(await gatt.statistics(for: Self.corne).reads == connected)

            clock.advance(by: window)
            try await client.call(KBlinkContract.Keyboard.refreshInfo, on: keyboard)
            try await client.call(KBlinkContract.Keyboard.refreshInfo, on: keyboard)
            #expect(await gatt.statistics(for: Self.corne).reads == connected + perRead, "two calls, one read")

            clock.advance(by: window - .milliseconds(1))
            try await client.call(KBlinkContract.Keyboard.refreshInfo, on: keyboard)
            #expect(await gatt.statistics(for: Self.corne).reads == connected + perRead)
            clock.advance(by: .milliseconds(1))
            try await client.call(KBlinkContract.Keyboard.refreshInfo, on: keyboard)
            #expect(await gatt.statistics(for: Self.corne).reads == connected + 2 * perRead, "read again after 5 s")
            await client.close()
        }
    }

    @Test("battery notifications of a split keyboard update the Battery property")
    func batteryNotifications() async throws {
        try await withFirmwareDaemon(devices: [.corneSplit]) { daemon in
            #expect(try await daemon.waitForRead(Self.corne))
            let gatt = daemon.bluez.gatt
            #expect(await eventually { await gatt.isNotifying(.batteryLevel, occurrence: 1, for: Self.corne) })
            await gatt.setValue([42], of: .batteryLevel, occurrence: 1, for: Self.corne)
            let client = try await KBlinkClient.connect(to: daemon.bus.busAddress)
            #expect(
                try await eventually {
                    try await client.keyboard(matching: "corne").battery == [
                        .init(part: "left", level: 90), .init(part: "right", level: 42),
                    ]
                })
            await client.close()
            let text = try await daemon.kblink(["info", "corne"])
            #expect(text.standardOutput.contains("Battery:    left 90%, right 42%"))
        }
    }

    @Test("battery notifications still arrive after RefreshInfo restarted the watcher, even with a slow StopNotify")
    func batteryNotificationsAfterRefresh() async throws {
        try await withFirmwareDaemon(devices: [.corneSplit]) { daemon in
            #expect(try await daemon.waitForRead(Self.corne))
            let gatt = daemon.bluez.gatt
            #expect(await eventually { await gatt.isNotifying(.batteryLevel, occurrence: 1, for: Self.corne) })
            // bluetoothd keeps one session per characteristic and client: the old watcher's StopNotify must be
            // answered before the new watcher's StartNotify, or it ends the new session.
            await gatt.setFaults(SimulatedGATTFaults(stopNotifyDelay: .milliseconds(100)), for: Self.corne)
            let client = try await KBlinkClient.connect(to: daemon.bus.busAddress)
            try await client.call(KBlinkContract.Keyboard.refreshInfo, on: try await client.keyboard(matching: "corne"))
            #expect(
                await eventually {
                    let stopped = await gatt.statistics(for: Self.corne).notifySessionsStopped
                    let left = await gatt.isNotifying(.batteryLevel, occurrence: 0, for: Self.corne)
                    let right = await gatt.isNotifying(.batteryLevel, occurrence: 1, for: Self.corne)
                    return stopped == 2 && left && right
                })
            await gatt.setValue([37], of: .batteryLevel, occurrence: 1, for: Self.corne)
            #expect(
                try await eventually {
                    try await client.keyboard(matching: "corne").battery == [
                        .init(part: "left", level: 90), .init(part: "right", level: 37),
                    ]
                })
            await client.close()
        }
    }

    @Test("kblink info for people: every line of a split keyboard")
    func humanOutput() async throws {
        try await withFirmwareDaemon(devices: [.corneSplit]) { daemon in
            #expect(try await daemon.waitForRead(Self.corne))
            let result = try await daemon.kblink(["info", "corne", "--refresh"])
            #expect(result.status == 0, "\(result.standardError)")
            let expected = [
                "Corne Split",
                "  Address:    EC:0C:4E:00:00:42",
                "  Connected:  yes   Paired: yes   Trusted: yes",
                "  Health:     working — input devices are not watched",
                "  Battery:    left 90%, right 75%",
                "  Driver:     none",
                "  Vendor:     OpenMoko, Inc. (USB-IF 0x1d50)",
                "  Product:    0x615e, version 0x0300",
                "  Maker:      ZMK Project",
                "  Model:      Corne",
                "  Serial:     5E1F0C2A9B3D",
                "  Firmware:   0.3.0",
                "  Hardware:   nice!nano v2",
                "  Software:   Zephyr 3.5.0",
            ]
            #expect(Array(result.lines.prefix(expected.count)) == expected)
            #expect(result.lines.last?.hasPrefix("  Read:       just now (") == true)
        }
    }
}
