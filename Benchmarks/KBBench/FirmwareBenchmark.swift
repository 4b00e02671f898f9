import Glibc
import KeyboardLink

/// Issue 6: `kblink info` from the cache with the daemon warm (next to `kblink list`), and a cold refresh of a
/// keyboard whose GATT reads each take 30 ms.
///
/// The daemon is kblinkd's service run in this process on a private bus with the simulated BlueZ (the Corne Split:
/// Device Information with 7 characteristics and two Battery Levels with user descriptions, 30 ms per read); the
/// CLI is the real release `kblink` binary.
struct FirmwareBenchmark: Sendable {
    var rounds = 15

    func run() async throws -> String {
        let binaries = try BuiltBinaries.locate()
        let bus = try PrivateBusDaemon()
        defer { bus.stop() }
        let state = try ScratchDirectory()
        defer { state.remove() }
        let bluez = SimulatedBlueZ(bus: .address(bus.address), devices: [.aulaF87, .corneSplit])
        try await bluez.start()
        let connection = try await BusConnection.connect(to: .address(bus.address))
        var options = KeyboardLinkService.Options(stateDirectory: state.path)
        // Cold refreshes are measured: every RefreshInfo reads the keyboard.
        options.firmwareRefreshWindow = .zero
        let service = KeyboardLinkService(connection: connection, options: options, log: { _, _ in })
        try await service.start()
        let client = try await KBlinkClient.connect(to: .address(bus.address))
        defer {
            Task {
                await client.close()
                await service.stop()
                await connection.close()
                await bluez.kill()
            }
        }
        let corne = try await client.keyboard(matching: "Corne")
        // Wait for the first (automatic) refresh, so that `info` answers from the cache.
        let clock = ContinuousClock()
        let waitUntil = clock.now.advanced(by: .seconds(20))
        while clock.now < waitUntil, (try await client.keyboard(matching: "Corne")).firmware["Model"] == nil {
            try await Task.sleep(for: .milliseconds(20))
        }

        var infoTimes: [Double] = []
        var listTimes: [Double] = []
        let environment = ["KBLINK_BUS=\(bus.address)", "PATH=/usr/bin:/bin"]
        for _ in 0..<rounds {
            let info = try ChildProcess.run(binaries.kblink, ["info", "Corne", "--json"], environment: environment)
            guard info.status == 0, String(decoding: info.output, as: UTF8.self).contains("Corne") else {
                throw BenchError("kblink info failed: status \(info.status)")
            }
            infoTimes.append(info.wallSeconds)
            let list = try ChildProcess.run(binaries.kblink, ["list", "--json"], environment: environment)
            guard list.status == 0 else { throw BenchError("kblink list failed: status \(list.status)") }
            listTimes.append(list.wallSeconds)
        }

        var refreshTimes: [Double] = []
        var concurrency: [Int] = []
        let proxy = client.keyboardProxy(corne)
        for _ in 0..<rounds {
            await bluez.gatt.resetStatistics(for: SimulatedDevice.corneSplit.address)
            let start = clock.now
            try await proxy.call(MemberName("RefreshInfo"), timeout: .seconds(30))
            refreshTimes.append((clock.now - start).seconds)
            concurrency.append(
                await bluez.gatt.statistics(for: SimulatedDevice.corneSplit.address).maximumConcurrentReads)
        }
        let reads = await bluez.gatt.statistics(for: SimulatedDevice.corneSplit.address).reads

        func row(_ name: String, _ values: [Double]) -> [String] {
            let summary = Summary(values)
            return [
                name, Format.milliseconds(summary.min), Format.milliseconds(summary.median),
                Format.milliseconds(summary.mean),
            ]
        }
        let table = Format.table(
            ["wall time", "min ms", "median ms", "mean ms"],
            [
                row("kblink info Corne --json (from the cache, daemon warm)", infoTimes),
                row("kblink list --json (same daemon, 2 keyboards)", listTimes),
                row("RefreshInfo of the Corne Split, cold GATT reads at 30 ms each", refreshTimes),
            ])
        let infoMedian = Summary(infoTimes).median * 1000
        let refreshMedian = Summary(refreshTimes).median * 1000
        return "Firmware information (issue 6), \(rounds) runs each\n" + table + "\n"
            + "reads in one refresh: \(reads) (characteristics and descriptors); most reads in flight at"
            + " once: \(concurrency.max() ?? 0)\n"
            + "Goal: kblink info from the cache under 20 ms: \(infoMedian < 20 ? "met" : "not met") (median "
            + "\(Format.number(infoMedian, decimals: 1)) ms).\n"
            + "Goal: a cold refresh under 100 ms: \(refreshMedian < 100 ? "met" : "not met") (median "
            + "\(Format.number(refreshMedian, decimals: 1)) ms).\n"
    }
}
