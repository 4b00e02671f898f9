import Glibc
import KeyboardLink

/// Issue 8: pushing a full layer change (every key of layer 1) to the simulated keyboards with a simulated round
/// trip: writes (HID reports, GATT writes) and bytes sent against the protocol's minimum, and wall time.
///
/// The daemon is kblinkd's service in this process on a private bus with the simulated BlueZ; the push is the
/// `org.kblink1.Keymap.Push` call of a client, with read-back verification on (the default). Keyboards:
/// - the VGN 98Pro over VIA (98 keys, a 6 x 18 matrix, 4 layers), its link a socketpair to the simulated VIA
///   keyboard answering each 32-byte report after `roundTrip`;
/// - the Aula F87 over ZMK Studio (87 keys, 4 layers: fewer keys than 98, so its full layer is 87 bindings), the
///   simulated firmware answering each request written to the GATT characteristic after `roundTrip`.
///
/// Each round imports a profile whose layer 1 binds every key to a letter, shifted by one from the round before,
/// so every key of the layer changes; the import is not timed, the push is.
struct PushBenchmark: Sendable {
    var rounds = 5
    var roundTrip: Duration = .microseconds(7_500)

    /// What one keyboard's pushes measured.
    struct Measurement {
        var keyboard: String
        var changed: Int
        /// Reports or GATT writes that changed the keyboard (set_keycode, set_layer_binding, save_changes).
        var writes: Int
        var writeBytes: Int
        /// The fewest writes the protocol allows for the same change, and their bytes.
        var minimumWrites: Int
        var minimumBytes: Int
        var minimumNote: String
        /// Everything sent in one push, reads for the diff and the verification included.
        var allMessages: Int
        var allBytes: Int
        var wallSeconds: [Double]
        /// Writes the goal allows: one per changed binding plus this constant.
        var constant: Int
    }

    func run() async throws -> String {
        let via = try await measureVIA()
        let studio = try await measureStudio()
        var lines = [
            "Keymap push of a full layer (issue 8), \(rounds) pushes each, simulated round trip "
                + Format.milliseconds(roundTrip.seconds) + " ms, read-back verification on"
        ]
        let table = Format.table(
            [
                "keyboard", "changed", "writes", "bytes written", "minimum writes", "minimum bytes", "all sent",
                "all bytes", "wall min ms", "wall median ms",
            ],
            [via, studio].map { measurement in
                let summary = Summary(measurement.wallSeconds)
                return [
                    measurement.keyboard, String(measurement.changed), String(measurement.writes),
                    String(measurement.writeBytes), String(measurement.minimumWrites),
                    String(measurement.minimumBytes), String(measurement.allMessages), String(measurement.allBytes),
                    Format.milliseconds(summary.min), Format.milliseconds(summary.median),
                ]
            })
        lines.append(table)
        for measurement in [via, studio] {
            lines.append("\(measurement.keyboard): minimum: \(measurement.minimumNote)")
        }
        for measurement in [via, studio] {
            let allowed = measurement.changed + measurement.constant
            lines.append(
                "Goal (\(measurement.keyboard)): no more writes than changed bindings plus a constant ("
                    + "\(measurement.changed) + \(measurement.constant)): "
                    + (measurement.writes <= allowed ? "met" : "not met") + " (\(measurement.writes) writes).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: VIA

    private func measureVIA() async throws -> Measurement {
        var device = SimulatedDevice.vgn98Pro
        device.connected = true
        let layout = try PhysicalLayout.builtIn("vgn-98pro")
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        let layers = 4
        let (server, transport) = try SimulatedVIAKeyboardServer.start(
            try SimulatedVIAKeyboard(layers: layers, rows: rows, columns: columns), replyDelay: roundTrip)
        defer {
            server.stop()
            transport.close()
        }
        let address = device.address
        let links = VIADriverLinks { wanted in wanted.address == address ? .init(transport: transport, close: {}) : nil
        }
        let changed = layout.keys.count
        var writes = 0
        var allReports = 0
        var times: [Double] = []
        try await withDaemon(devices: [device], viaLinks: links) { service, _, keymap in
            // Read the keyboard's keymap into the base first (not measured).
            await service.readKeymapBases()
            for round in 0..<rounds {
                try await importFullLayer(round: round, layout: layout, service: service, address: address, keymap)
                let before = server.keyboard
                let (result, seconds) = try await timedPush(keymap)
                let after = server.keyboard
                guard result.written == changed else {
                    throw BenchError("VIA push wrote \(result.written) bindings, expected \(changed)")
                }
                writes = after.writeLog.count - before.writeLog.count
                allReports = after.reportCount - before.reportCount
                times.append(seconds)
            }
        }
        // dynamic_keymap_set_buffer (0x13) carries up to 28 bytes (14 keycodes) at any offset of the keymap
        // buffer, so the fewest reports cover the changed keycodes' offsets with 28-byte windows.
        let offsets = layout.keys.map { ((1 * rows + $0.matrix.row) * columns + $0.matrix.column) * 2 }
        let minimum = Self.windows(covering: offsets, width: 28)
        let report = VIAReport.length
        return Measurement(
            keyboard: "VGN 98Pro (VIA)", changed: changed, writes: writes, writeBytes: writes * report,
            minimumWrites: minimum, minimumBytes: minimum * report,
            minimumNote:
                "\(minimum) dynamic_keymap_set_buffer (0x13) reports of up to 28 bytes (14 keycodes) cover the "
                + "layer's \(changed) keycodes (\(rows) x \(columns) matrix, \(rows * columns * 2) bytes); kblink "
                + "sends 0x13 reports for changed keycodes within 14 of each other and 0x05 for a lone one; "
                + "every report is "
                + "\(report) bytes",
            allMessages: allReports, allBytes: allReports * report, wallSeconds: times, constant: 0)
    }

    /// The fewest `width`-byte windows that cover every 2-byte keycode at `offsets`.
    static func windows(covering offsets: [Int], width: Int) -> Int {
        var count = 0
        var coveredUntil = Int.min
        for offset in offsets.sorted() where offset + 2 > coveredUntil {
            count += 1
            coveredUntil = offset + width
        }
        return count
    }

    // MARK: ZMK Studio

    private func measureStudio() async throws -> Measurement {
        let device = SimulatedStudioKeyboard.aulaF87Device
        let address = device.address
        let layout = try PhysicalLayout.builtIn("aula-f87")
        let changed = layout.keys.count
        var writeCount = 0
        var writeBytes = 0
        var allWrites = 0
        var allBytes = 0
        var bindings: [StudioSetLayerBindingRequest] = []
        var times: [Double] = []
        try await withDaemon(devices: [device], viaLinks: nil) { service, bluez, keymap in
            let gatt = bluez.gatt
            let waitUntil = ContinuousClock.now.advanced(by: .seconds(20))
            while await gatt.profile(for: address) == nil, ContinuousClock.now < waitUntil {
                try await Task.sleep(for: .milliseconds(10))
            }
            let keyboard = SimulatedStudioKeyboard(
                firmware: SimulatedStudioKeyboard.firmware(matching: layout), address: address, gatt: gatt)
            await keyboard.attach()
            await keyboard.unlock()
            await keyboard.setAnswerDelay(roundTrip)
            await service.readKeymapBases()
            for round in 0..<rounds {
                try await importFullLayer(round: round, layout: layout, service: service, address: address, keymap)
                let requestsBefore = await keyboard.firmware.requestLog.count
                let gattBefore = await gatt.statistics(for: address).writes.count
                let (result, seconds) = try await timedPush(keymap)
                guard result.written == changed else {
                    throw BenchError("Studio push wrote \(result.written) bindings, expected \(changed)")
                }
                let requests = Array(await keyboard.firmware.requestLog.dropFirst(requestsBefore))
                let frames = await gatt.statistics(for: address).writes.dropFirst(gattBefore).filter {
                    $0.uuid == StudioDriver.characteristicUUID
                }
                guard requests.count == frames.count else {
                    throw BenchError("\(frames.count) GATT writes carried \(requests.count) requests")
                }
                var count = 0
                var bytes = 0
                bindings = []
                for (request, frame) in zip(requests, frames) {
                    switch request.subsystem {
                    case .keymap(.setLayerBinding(let binding)):
                        bindings.append(binding)
                        count += 1
                        bytes += frame.value.count
                    case .keymap(.saveChanges):
                        count += 1
                        bytes += frame.value.count
                    default:
                        break
                    }
                }
                writeCount = count
                writeBytes = bytes
                allWrites = frames.count
                allBytes = frames.reduce(0) { $0 + $1.value.count }
                times.append(seconds)
            }
        }
        // ZMK Studio has no bulk write: one set_layer_binding request per binding, then save_changes. The fewest
        // bytes are those requests framed with the smallest request ids (1, 2, ...).
        var core = StudioRPCClientCore(firstRequestID: 1)
        var minimumBytes = 0
        for binding in bindings {
            minimumBytes += core.makeRequest(.keymap(.setLayerBinding(binding))).frame.count
        }
        minimumBytes += core.makeRequest(.keymap(.saveChanges)).frame.count
        return Measurement(
            keyboard: "Aula F87 (ZMK Studio)", changed: changed, writes: writeCount, writeBytes: writeBytes,
            minimumWrites: changed + 1, minimumBytes: minimumBytes,
            minimumNote:
                "ZMK Studio sets one binding per request: \(changed) set_layer_binding requests and one "
                + "save_changes, one framed request per GATT write (the Aula F87 has \(changed) keys, not 98: its "
                + "full layer is \(changed) bindings); minimum bytes use request ids from 1",
            allMessages: allWrites, allBytes: allBytes, wallSeconds: times, constant: 1)
    }

    // MARK: Shared

    /// Stages a profile whose layer 1 binds every key to a letter, `round` letters further than key order.
    private func importFullLayer(
        round: Int, layout: PhysicalLayout, service: KeyboardLinkService, address: BluetoothAddress,
        _ keymap: KeymapClient
    ) async throws {
        guard var wanted = await service.keymaps.session(for: address)?.draftKeymap else {
            throw BenchError("no keymap session for \(address)")
        }
        for (index, key) in layout.keys.enumerated() {
            let letter = UInt16(0x04 + (index + round) % 26)
            wanted.setAction(KeyAction(qmkKeycode: letter), layer: 1, key: key.name)
        }
        let document = ProfileDocument(layout: layout.id, keymap: wanted)
        _ = try await keymap.importProfile(String(decoding: document.json(), as: UTF8.self))
    }

    private func timedPush(_ keymap: KeymapClient) async throws -> (PushReport, Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await keymap.push()
        return (result, (clock.now - start).seconds)
    }

    /// Runs `body` with kblinkd's service on a private bus with the simulated BlueZ and a client on the keymap of
    /// the only keyboard; VIA keyboards reached through `viaLinks`.
    private func withDaemon(
        devices: [SimulatedDevice], viaLinks: VIADriverLinks?,
        _ body: (KeyboardLinkService, SimulatedBlueZ, KeymapClient) async throws -> Void
    ) async throws {
        guard let address = devices.first?.address else { throw BenchError("no keyboard") }
        let bus = try PrivateBusDaemon()
        defer { bus.stop() }
        let state = try ScratchDirectory()
        defer { state.remove() }
        let bluez = SimulatedBlueZ(bus: .address(bus.address), devices: devices)
        try await bluez.start()
        let connection = try await BusConnection.connect(to: .address(bus.address))
        var options = KeyboardLinkService.Options(stateDirectory: state.path)
        // The simulated Studio firmware attaches after the keyboard connected: its keymap is read into the base
        // once it is there (readKeymapBases), not on connection.
        options.readsKeymapOnConnect = false
        let service = KeyboardLinkService(connection: connection, options: options, log: { _, _ in })
        if let viaLinks { await service.pushes.setVIALinks(viaLinks) }
        try await service.start()
        let client = try await BusConnection.connect(to: .address(bus.address))
        let keymap = KeymapClient(connection: client, path: KBlink.keyboardPath(address))
        do {
            try await body(service, bluez, keymap)
        } catch {
            await client.close()
            await service.stop()
            await connection.close()
            await bluez.kill()
            throw error
        }
        await client.close()
        await service.stop()
        await connection.close()
        await bluez.kill()
    }
}
