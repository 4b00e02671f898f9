import Glibc
import KeyboardLink

/// Issue 3's benchmarks, with the real release binaries: kblinkd's start-up time to `READY=1` with many simulated
/// keyboards, `kblink list --json` next to `bluetoothctl devices` against python-dbusmock holding the same
/// devices, and kblinkd's resident memory.
struct DaemonBenchmark: Sendable {
    /// Keyboards for the start-up and list benchmarks.
    var keyboards = 1_000
    /// Keyboards for the memory goal.
    var memoryKeyboards = 100
    /// Timed daemon starts (after one untimed first start).
    var startups = 5
    /// Timed runs of each command in the list comparison (after two warm-up runs each).
    var lists = 10
    /// List calls made before memory is read.
    var memoryListCalls = 5
    /// When positive, after the start-ups: print the bus address and kblinkd's pid, then wait this long, so that
    /// kblink and kblinkd can be profiled by hand against the daemon with `keyboards` keyboards.
    var holdSeconds = 0

    /// A kblinkd child and its scratch directory (state directory, configuration, log).
    private struct Daemon: Sendable {
        var child: ChildProcess
        var scratch: ScratchDirectory
        var logPath: String

        func stop() async {
            let child = child
            await blocking { child.stop() }
            scratch.remove()
        }
    }

    private struct Started: Sendable {
        var daemon: Daemon
        var readySeconds: Double
        var status: String
    }

    private struct ListRound {
        var kblink: ChildProcess.Finished
        var bluetoothctl: ChildProcess.Finished
        /// `kblink --version`: a Swift process's start and exit, no D-Bus.
        var version: ChildProcess.Finished
        /// `kblink status --json`: start, connect, a few small calls, exit.
        var status: ChildProcess.Finished
        var baseline: ChildProcess.Finished
    }

    func run() async throws -> String {
        let binaries = try BuiltBinaries.locate()
        let listener = try NotifyListener()
        var report = "kblinkd and kblink (\(binaries.kblinkd), \(binaries.kblink))\n\n"
        // KBLINK_BENCH_MEMORY_ONLY=1: only the memory rows (0, `memoryKeyboards` and `keyboards` keyboards), without
        // the start-up and list comparison (no python-dbusmock needed; about 10 s).
        if let only = getenv("KBLINK_BENCH_MEMORY_ONLY"), String(cString: only) == "1" {
            return report + (try await memoryReport(binaries, listener: listener, lastRow: nil))
        }

        // Start-up and list with `keyboards` simulated keyboards, then memory with them.
        let bus = try PrivateBusDaemon()
        defer { bus.stop() }
        let address = BusAddress.address(bus.address)
        let simulated = SimulatedBlueZ(bus: address, devices: try SimulatedKeyboards.make(keyboards))
        let clock = ContinuousClock()
        let began = clock.now
        try await simulated.start()
        let simulatorSeconds = (clock.now - began).seconds
        let client: BusConnection
        let memoryAfterLists: ProcessMemory
        do {
            client = try await BusConnection.connect(to: address, label: "kblink-bench.daemon-client")
        } catch {
            await simulated.kill()
            throw error
        }
        do {
            let part = try await startupAndList(
                binaries, bus: bus.address, listener: listener, client: client, simulatorSeconds: simulatorSeconds)
            report += part.0
            memoryAfterLists = part.1
        } catch {
            await client.close()
            await simulated.kill()
            throw error
        }
        await client.close()
        await simulated.kill()
        report += try await memoryReport(
            binaries, listener: listener,
            lastRow: ("\(keyboards) keyboards, idle after \(lists + 2) lists", memoryAfterLists))
        return report
    }

    /// The memory table: fresh daemons with 0 and `memoryKeyboards` keyboards, then `lastRow` (the list benchmark's
    /// daemon) or, without it, a fresh daemon with `keyboards` keyboards; then where the idle daemon's resident
    /// memory is, by mapping.
    private func memoryReport(
        _ binaries: BuiltBinaries, listener: NotifyListener, lastRow: (String, ProcessMemory)?
    ) async throws -> String {
        var memoryRows: [[String]] = []
        var idleAtGoal: ProcessMemory?
        var last = lastRow
        for count in [0, memoryKeyboards] + (lastRow == nil ? [keyboards] : []) {
            let (atReady, idle) = try await memory(binaries, keyboards: count, listener: listener)
            if count == keyboards && lastRow == nil {
                last = ("\(count) keyboards, idle after \(memoryListCalls) lists", idle)
                continue
            }
            memoryRows.append(memoryRow("\(count) keyboards, at READY=1", atReady))
            memoryRows.append(memoryRow("\(count) keyboards, idle after \(memoryListCalls) lists", idle))
            if count == memoryKeyboards { idleAtGoal = idle }
        }
        if let last { memoryRows.append(memoryRow(last.0, last.1)) }
        var report =
            "Memory: kblinkd's /proc/PID/status (PSS and USS from smaps_rollup), 1 s after the last list call; "
        report += "Swift runtime "
        report +=
            (idleAtGoal?.sharedSwiftRuntime ?? false) ? "shared (libswiftCore.so mapped)\n\n" : "linked statically\n\n"
        report += Format.table(
            ["kblinkd", "VmRSS MiB", "VmHWM MiB", "RssAnon MiB", "RssFile MiB", "PSS MiB", "USS MiB", "threads"],
            memoryRows)
        if let idleAtGoal {
            let met = idleAtGoal.residentKiB <= 12 * 1024
            report += "\nGoal: at most 12 MiB resident, idle with \(memoryKeyboards) keyboards: "
            report += "\(met ? "met" : "not met") (VmRSS \(Format.mebibytes(idleAtGoal.residentKiB)) MiB).\n"
            report += "\nResident MiB by mapping, idle with \(memoryKeyboards) keyboards (smaps Rss; 0.05 MiB and up): "
            report +=
                idleAtGoal.residentByMapping.filter { $0.kib >= 51 }
                .map { "\($0.name) \(Format.mebibytes($0.kib))" }.joined(separator: ", ") + "\n"
        }
        if let last, let idleAtGoal, memoryKeyboards > 0, let lastCount = Int(last.0.prefix { $0 != " " }),
            lastCount > memoryKeyboards
        {
            let perKeyboard =
                Double(last.1.anonymousKiB - idleAtGoal.anonymousKiB) / Double(lastCount - memoryKeyboards)
            report += "Anonymous memory per keyboard (RssAnon, \(memoryKeyboards) to \(lastCount) keyboards): "
            report += "\(Format.number(perKeyboard, decimals: 1)) KiB\n"
        }
        return report
    }

    /// Start-up times and the list comparison on the bus of the simulated BlueZ; returns the report and the
    /// memory of the last daemon after all the list calls.
    private func startupAndList(
        _ binaries: BuiltBinaries, bus: String, listener: NotifyListener, client: BusConnection,
        simulatorSeconds: Double
    ) async throws -> (String, ProcessMemory) {
        let blueZReplies = try await Self.timeGetManagedObjects(client, BlueZ.service, .root, times: 5)
        var starts: [Started] = []
        for round in 0...startups {
            let started = try await start(binaries, bus: bus, listener: listener)
            guard started.status.contains("\(keyboards) keyboard(s)") else {
                await started.daemon.stop()
                throw BenchError("kblinkd said '\(started.status)' at READY=1, not \(keyboards) keyboard(s)")
            }
            starts.append(started)
            if round < startups { await started.daemon.stop() }
        }
        guard let daemon = starts.last?.daemon else { throw BenchError("no daemon started") }
        if holdSeconds > 0 {
            print("holding \(holdSeconds) s: kblinkd pid \(daemon.child.pid), bus \(bus)")
            fflush(nil)
            try? await Task.sleep(for: .seconds(holdSeconds))
        }
        var report = "Start-up: \(keyboards) simulated keyboards served by SimulatedBlueZ in the bench process "
        report += "(exporting them took \(Format.number(simulatorSeconds, decimals: 2)) s)\n\n"
        report += startupTable(starts, blueZReplies: blueZReplies) + "\n\n"

        let clock = ContinuousClock()
        let began = clock.now
        let mock: DBusMockBlueZ
        do {
            mock = try await DBusMockBlueZ(devices: keyboards)
        } catch {
            await daemon.stop()
            throw error
        }
        let mockSeconds = (clock.now - began).seconds
        let rounds: [ListRound]
        let listReplies: [Double]
        let listKeyboardsReplies: [Double]
        let mockReplies: [Double]
        let memory: ProcessMemory
        do {
            rounds = try await listRounds(binaries, bus: bus, mock: mock)
            listReplies = try await Self.timeGetManagedObjects(client, KBlink.service, KBlink.managerPath, times: 5)
            listKeyboardsReplies = try await Self.timeListKeyboards(client, times: 5)
            let mockClient = try await BusConnection.connect(
                to: .address(mock.bus.address), label: "kblink-bench.mock-client")
            do {
                mockReplies = try await Self.timeGetManagedObjects(mockClient, BlueZ.service, .root, times: 5)
            } catch {
                await mockClient.close()
                throw error
            }
            await mockClient.close()
            try await Task.sleep(for: .seconds(1))
            memory = try ProcessMemory.of(daemon.child.pid)
        } catch {
            mock.stop()
            await daemon.stop()
            throw error
        }
        mock.stop()
        await daemon.stop()
        report += "List: kblink list --json (kblinkd warm, \(keyboards) keyboards) vs bluetoothctl devices "
        report += "(python-dbusmock bluez5 with the same \(keyboards) devices, set up in "
        report += "\(Format.number(mockSeconds, decimals: 1)) s); \(lists) runs each, interleaved\n\n"
        report +=
            listTable(
                rounds, listReplies: listReplies, listKeyboardsReplies: listKeyboardsReplies, mockReplies: mockReplies)
            + "\n\n"
        return (report, memory)
    }

    // MARK: Start-up

    /// Starts kblinkd on `bus` and times it from `posix_spawn` to the arrival of `READY=1`.
    private func start(_ binaries: BuiltBinaries, bus: String, listener: NotifyListener) async throws -> Started {
        let scratch = try ScratchDirectory()
        let config = try scratch.write("kblinkd.conf", "")
        let logPath = scratch.path + "/kblinkd.log"
        let arguments = ["--bus", bus, "--state-dir", scratch.path, "--config", config]
        let environment = ChildProcess.environment(
            ["NOTIFY_SOCKET=\(listener.path)"], removing: ["WATCHDOG_USEC", "WATCHDOG_PID"])
        let kblinkd = binaries.kblinkd
        let outcome = try await blockingThrows { () -> (ChildProcess, Double, [String]?) in
            listener.drain()
            let clock = ContinuousClock()
            let began = clock.now
            let child = try ChildProcess.start(
                kblinkd, arguments, environment: environment, captureOutput: false, errorPath: logPath)
            let ready = listener.wait(for: "READY=1", until: began.advanced(by: .seconds(60))) {
                !child.hasExited()
            }
            return (child, ready.map { ($0.arrived - began).seconds } ?? 0, ready?.lines)
        }
        let daemon = Daemon(child: outcome.0, scratch: scratch, logPath: logPath)
        guard let lines = outcome.2 else {
            let log = ProcessMemory.readText(logPath) ?? ""
            await daemon.stop()
            throw BenchError("kblinkd sent no READY=1 within 60 s; its log:\n\(log.suffix(2000))")
        }
        let status = lines.first { $0.hasPrefix("STATUS=") }.map { String($0.dropFirst(7)) } ?? ""
        return Started(daemon: daemon, readySeconds: outcome.1, status: status)
    }

    private func startupTable(_ starts: [Started], blueZReplies: [Double]) -> String {
        func row(_ name: String, _ values: [Double]) -> [String] {
            let summary = Summary(values)
            return [
                name, Format.milliseconds(summary.min), Format.milliseconds(summary.median),
                Format.milliseconds(summary.mean),
            ]
        }
        return Format.table(
            ["", "min ms", "median ms", "mean ms"],
            [
                row("kblinkd start to READY=1, first start", starts.prefix(1).map(\.readySeconds)),
                row(
                    "kblinkd start to READY=1, next \(starts.count - 1) starts", starts.dropFirst().map(\.readySeconds)),
                row("(reference) GetManagedObjects of the simulated BlueZ, our client in the bench", blueZReplies),
            ])
    }

    // MARK: List

    /// Checks both commands' output once, warms up, then runs kblink, bluetoothctl and /bin/true in turn.
    private func listRounds(_ binaries: BuiltBinaries, bus: String, mock: DBusMockBlueZ) async throws -> [ListRound] {
        let kblink = binaries.kblink
        let kblinkEnvironment = ChildProcess.environment(["NO_COLOR=1"], removing: ["KBLINK_BUS"])
        let mockEnvironment = ChildProcess.environment([mock.systemBusVariable, "NO_COLOR=1"])
        let expected = keyboards
        let count = lists
        return try await blockingThrows { () -> [ListRound] in
            func runKBlink() throws -> ChildProcess.Finished {
                let finished = try ChildProcess.run(
                    kblink, ["--bus", bus, "list", "--json"], environment: kblinkEnvironment)
                let listed = Self.occurrences(of: Array("\"address\":".utf8), in: finished.output)
                guard finished.status == 0, listed == expected else {
                    throw BenchError(
                        "kblink list --json exited \(finished.status) with \(listed) keyboards, not \(expected)")
                }
                return finished
            }
            func runBluetoothctl() throws -> ChildProcess.Finished {
                // A command argument makes bluetoothctl run it once it has read the objects and exit by itself;
                // `--timeout N` would keep it running for N seconds whatever the command.
                let finished = try ChildProcess.run(
                    "/usr/bin/bluetoothctl", ["devices"], environment: mockEnvironment)
                let listed = finished.outputText.split(separator: "\n").filter { $0.hasPrefix("Device ") }.count
                guard finished.status == 0, listed == expected else {
                    throw BenchError(
                        "bluetoothctl devices exited \(finished.status) listing \(listed) devices, not \(expected)")
                }
                return finished
            }
            for _ in 0..<2 {
                _ = try runKBlink()
                _ = try runBluetoothctl()
            }
            var rounds: [ListRound] = []
            for _ in 0..<count {
                let kblinkRun = try runKBlink()
                let bluetoothctlRun = try runBluetoothctl()
                let version = try ChildProcess.run(kblink, ["--version"], environment: kblinkEnvironment)
                let status = try ChildProcess.run(
                    kblink, ["--bus", bus, "status", "--json"], environment: kblinkEnvironment)
                guard status.status == 0, status.outputText.contains("\"hardwareKeyboardAttached\"") else {
                    throw BenchError("kblink status --json exited \(status.status): \(status.outputText.prefix(200))")
                }
                let baseline = try ChildProcess.run("/bin/true", [], environment: kblinkEnvironment)
                rounds.append(
                    ListRound(
                        kblink: kblinkRun, bluetoothctl: bluetoothctlRun, version: version, status: status,
                        baseline: baseline))
            }
            return rounds
        }
    }

    private func listTable(
        _ rounds: [ListRound], listReplies: [Double], listKeyboardsReplies: [Double], mockReplies: [Double]
    ) -> String {
        func row(_ name: String, _ runs: [ChildProcess.Finished]) -> [String] {
            let wall = Summary(runs.map(\.wallSeconds))
            let cpu = Summary(runs.map(\.cpuSeconds))
            return [
                name, Format.milliseconds(wall.min), Format.milliseconds(wall.median), Format.milliseconds(wall.mean),
                Format.milliseconds(cpu.median),
            ]
        }
        func reference(_ name: String, _ values: [Double]) -> [String] {
            let summary = Summary(values)
            return [
                name, Format.milliseconds(summary.min), Format.milliseconds(summary.median),
                Format.milliseconds(summary.mean), "",
            ]
        }
        let ratios = Summary(rounds.map { $0.kblink.wallSeconds / $0.bluetoothctl.wallSeconds })
        let kblinkMedian = Summary(rounds.map(\.kblink.wallSeconds)).median
        let bluetoothctlMedian = Summary(rounds.map(\.bluetoothctl.wallSeconds)).median
        let met = kblinkMedian * 20 <= bluetoothctlMedian
        return Format.table(
            ["wall time per run", "min ms", "median ms", "mean ms", "its CPU ms (median)"],
            [
                row("kblink list --json", rounds.map(\.kblink)),
                row("bluetoothctl devices", rounds.map(\.bluetoothctl)),
                row("kblink status --json (connect and small calls)", rounds.map(\.status)),
                row("kblink --version (Swift process start and exit)", rounds.map(\.version)),
                row("/bin/true (process start and exit)", rounds.map(\.baseline)),
                reference(
                    "(reference) ListKeyboards of kblinkd (what kblink list calls), our client", listKeyboardsReplies),
                reference("(reference) GetManagedObjects of kblinkd, our client in the bench", listReplies),
                reference("(reference) GetManagedObjects of python-dbusmock, our client", mockReplies),
            ])
            + "\n\nkblink / bluetoothctl wall time per round: min \(Format.number(ratios.min, decimals: 3)), "
            + "median \(Format.number(ratios.median, decimals: 3)), mean \(Format.number(ratios.mean, decimals: 3))"
            + "\nGoal: kblink at most 1/20 (0.050) of bluetoothctl's time: \(met ? "met" : "not met") "
            + "(medians \(Format.milliseconds(kblinkMedian)) ms and \(Format.milliseconds(bluetoothctlMedian)) ms)."
    }

    // MARK: Memory

    /// kblinkd's memory with `keyboards` simulated keyboards at READY=1, and idle after `memoryListCalls` lists.
    private func memory(_ binaries: BuiltBinaries, keyboards count: Int, listener: NotifyListener) async throws
        -> (ProcessMemory, ProcessMemory)
    {
        let bus = try PrivateBusDaemon()
        defer { bus.stop() }
        let simulated = SimulatedBlueZ(bus: .address(bus.address), devices: try SimulatedKeyboards.make(count))
        try await simulated.start()
        let started = try await start(binaries, bus: bus.address, listener: listener)
        let result: (ProcessMemory, ProcessMemory)
        do {
            let atReady = try ProcessMemory.of(started.daemon.child.pid)
            let kblink = binaries.kblink
            let environment = ChildProcess.environment(["NO_COLOR=1"], removing: ["KBLINK_BUS"])
            let calls = memoryListCalls
            let address = bus.address
            try await blockingThrows {
                for _ in 0..<calls {
                    let finished = try ChildProcess.run(
                        kblink, ["--bus", address, "list", "--json"], environment: environment)
                    let listed = Self.occurrences(of: Array("\"address\":".utf8), in: finished.output)
                    guard finished.status == 0, listed == count else {
                        throw BenchError("kblink list --json listed \(listed) keyboards, not \(count)")
                    }
                }
            }
            try await Task.sleep(for: .seconds(1))
            result = (atReady, try ProcessMemory.of(started.daemon.child.pid))
        } catch {
            await started.daemon.stop()
            await simulated.kill()
            throw error
        }
        await started.daemon.stop()
        await simulated.kill()
        return result
    }

    private func memoryRow(_ name: String, _ memory: ProcessMemory) -> [String] {
        [
            name, Format.mebibytes(memory.residentKiB), Format.mebibytes(memory.peakResidentKiB),
            Format.mebibytes(memory.anonymousKiB), Format.mebibytes(memory.fileKiB),
            Format.mebibytes(memory.proportionalKiB), Format.mebibytes(memory.uniqueKiB), String(memory.threads),
        ]
    }

    // MARK: Helpers

    /// Times `GetManagedObjects` on `destination` at `path`, `times` times after one untimed call.
    static func timeGetManagedObjects(
        _ client: BusConnection, _ destination: BusName, _ path: ObjectPath, times: Int
    ) async throws -> [Double] {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for round in 0...times {
            let began = clock.now
            _ = try await client.call(
                destination: destination, path: path, interface: .objectManager,
                member: MemberName("GetManagedObjects"), timeout: .seconds(60))
            if round > 0 { samples.append((clock.now - began).seconds) }
        }
        return samples
    }

    /// Times kblinkd's `Manager.ListKeyboards` (what `kblink list` calls), `times` times after one untimed call,
    /// and checks that it lists as many keyboards as the daemon serves.
    static func timeListKeyboards(_ client: BusConnection, times: Int) async throws -> [Double] {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for round in 0...times {
            let began = clock.now
            let reply = try await client.call(
                destination: KBlink.service, path: KBlink.managerPath, interface: KBlink.managerInterface,
                member: MemberName("ListKeyboards"), timeout: .seconds(60))
            if round > 0 { samples.append((clock.now - began).seconds) }
            guard reply.body.count == 1, case .array(_, let entries) = reply.body[0], !entries.isEmpty else {
                throw BenchError("ListKeyboards answered '\(reply.signature.rawValue)' with no keyboards")
            }
        }
        return samples
    }

    /// How many times `needle` occurs in `haystack`.
    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard !needle.isEmpty, haystack.count >= needle.count else { return 0 }
        var count = 0
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                count += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return count
    }
}
