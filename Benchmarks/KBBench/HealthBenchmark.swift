import Glibc
import KeyboardLink

/// Issue 30: the reconnect time, from a keyboard's link coming up to its input device existing, as kblinkd records
/// it (`ReconnectTimes`), on a healthy reconnect and on one healed by `ConnectProfile`.
///
/// The daemon is kblinkd's service run in this process on a private bus with the simulated BlueZ playing the
/// keyboards' input devices too (`SimulatedInputDevices`, watched by the same evdev monitor kblinkd runs).
struct HealthBenchmark: Sendable {
    var rounds = 10
    /// The deadline before the first healing step, for the healed rows.
    var deadline: Duration = .milliseconds(500)

    func run() async throws -> String {
        let bus = try PrivateBusDaemon()
        defer { bus.stop() }
        let state = try ScratchDirectory()
        defer { state.remove() }
        let inputDevices = try SimulatedInputDevices.temporary()
        defer { inputDevices.delete() }
        let aula = SimulatedDevice.aulaF87.address
        let bluez = SimulatedBlueZ(bus: .address(bus.address), devices: [.aulaF87])
        await bluez.setInputDevices(inputDevices)
        try await bluez.start()
        let connection = try await BusConnection.connect(to: .address(bus.address))
        var options = KeyboardLinkService.Options(stateDirectory: state.path)
        options.readsKeymapOnConnect = false
        options.health = HealthSettings(deadline: deadline, budget: 3, backoff: .milliseconds(100))
        let service = KeyboardLinkService(connection: connection, options: options, log: { _, _ in })
        try await service.start()
        let feed = EvdevPresenceFeed(
            devicesPath: inputDevices.devicesPath, directory: inputDevices.directory, sysfsRoot: inputDevices.sysfsRoot)
        let feedTask = Task { await feed.run(into: service, logger: Logger(threshold: .error, sink: LogSink { _ in })) }
        let client = try await KBlinkClient.connect(to: .address(bus.address))
        defer {
            Task {
                feedTask.cancel()
                await client.close()
                await service.stop()
                await connection.close()
                await bluez.kill()
            }
        }

        func health() async throws -> KeyboardHealth? {
            try await client.keyboards().first { $0.address == aula.description }?.health
        }
        func wait(for wanted: KeyboardHealth) async throws {
            let clock = ContinuousClock()
            let until = clock.now.advanced(by: .seconds(30))
            while clock.now < until {
                if try await health() == wanted, await !service.healthIsPending(aula) { return }
                try await Task.sleep(for: .milliseconds(5))
            }
            throw BenchError("the Aula F87 did not become \(wanted) within 30 s")
        }
        func reconnectTimes() async throws -> [UInt32] {
            try await client.healthReport(of: try await client.keyboard(matching: aula.description)).reconnectTimes
        }

        try await wait(for: .working)
        var healthy: [Double] = []
        var wall: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            try await bluez.setConnected(aula, false)
            try await wait(for: .asleep)
            let start = clock.now
            try await bluez.setConnected(aula, true)
            try await wait(for: .working)
            wall.append((clock.now - start).seconds)
            healthy.append(Double(try await reconnectTimes().last ?? 0) / 1000)
        }
        try await bluez.setInputDeviceBehavior(aula, .afterConnectProfile)
        var healed: [Double] = []
        for _ in 0..<max(1, rounds / 2) {
            try await bluez.setConnected(aula, false)
            try await wait(for: .asleep)
            try await bluez.setConnected(aula, true)
            try await wait(for: .working)
            healed.append(Double(try await reconnectTimes().last ?? 0) / 1000)
        }

        func row(_ name: String, _ values: [Double]) -> [String] {
            let summary = Summary(values)
            return [
                name, Format.milliseconds(summary.min), Format.milliseconds(summary.median),
                Format.milliseconds(summary.max),
            ]
        }
        let table = Format.table(
            ["reconnect time", "min ms", "median ms", "max ms"],
            [
                row("link up to input device, healthy (kblinkd's ReconnectTimes)", healthy),
                row("Connected=true to health working, as a client sees it", wall),
                row("healed by ConnectProfile, deadline \(deadline)", healed),
            ])
        return "Keyboard health (issue 30), \(rounds) reconnects, \(healed.count) heals\n" + table + "\n"
    }
}
