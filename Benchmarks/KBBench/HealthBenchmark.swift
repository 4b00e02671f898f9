import Glibc
import KeyboardLink

/// Issue 30: the reconnect time, from a keyboard's link coming up to its input device existing, as kblinkd records
/// it (`ReconnectTimes`), on a healthy reconnect, on an LE keyboard healed by disconnecting and connecting it (its
/// ladder has no `ConnectProfile`, which bluetoothd sends over BR/EDR) and on a classic keyboard healed by
/// `ConnectProfile`.
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
        var classic = SimulatedDevice.vgn98Pro
        classic.connected = true
        let bluez = SimulatedBlueZ(bus: .address(bus.address), devices: [.aulaF87, classic])
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

        func health(_ address: BluetoothAddress) async throws -> KeyboardHealth? {
            try await client.keyboards().first { $0.address == address.description }?.health
        }
        func wait(for wanted: KeyboardHealth, _ address: BluetoothAddress = aula) async throws {
            let clock = ContinuousClock()
            let until = clock.now.advanced(by: .seconds(30))
            while clock.now < until {
                if try await health(address) == wanted, await !service.healthIsPending(address) { return }
                try await Task.sleep(for: .milliseconds(5))
            }
            throw BenchError("\(address) did not become \(wanted) within 30 s")
        }
        func reconnectTimes(_ address: BluetoothAddress = aula) async throws -> [UInt32] {
            try await client.healthReport(of: try await client.keyboard(matching: address.description)).reconnectTimes
        }
        /// Reconnects `address` with `behavior` until healed, `rounds` times: kblinkd's reconnect times, in seconds.
        func heals(_ address: BluetoothAddress, _ behavior: SimulatedDevice.InputDeviceBehavior) async throws
            -> [Double]
        {
            try await bluez.setInputDeviceBehavior(address, behavior)
            var times: [Double] = []
            for _ in 0..<max(1, rounds / 2) {
                try await bluez.setConnected(address, false)
                try await wait(for: .asleep, address)
                try await bluez.setConnected(address, true)
                try await wait(for: .working, address)
                times.append(Double(try await reconnectTimes(address).last ?? 0) / 1000)
            }
            return times
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
        let healedLE = try await heals(aula, .afterReconnect)
        try await wait(for: .working, classic.address)
        let healedClassic = try await heals(classic.address, .afterConnectProfile)

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
                row("LE keyboard healed by reconnect, deadline \(deadline)", healedLE),
                row("classic keyboard healed by ConnectProfile, deadline \(deadline)", healedClassic),
            ])
        return "Keyboard health (issue 30), \(rounds) reconnects, \(healedLE.count) heals of each kind\n" + table + "\n"
    }
}
