import Glibc
import KeyboardLink

/// `kblink` as a whole process, start to exit, side by side with `busctl` (systemd's C client) in the same rounds:
/// `kblink --version` (start and exit, no D-Bus), `kblink status` and `kblink status --json` against
/// `kblinkd-demo` on a private bus (start, connect, a few small calls, print, exit), `kblink keymap set` by name and
/// by address (one `SetKeyboardBinding` each, whose edit kblinkd saves before it answers), `busctl --version` and
/// `/bin/true` for the process start itself. Runs alternate round by round, so that the machine's load moves every
/// command alike; the report gives each command's median and the ratio to `busctl --version` per round.
struct StartupBenchmark: Sendable {
    /// Timed rounds, after `warmUpRounds` untimed ones.
    var rounds = 60
    /// Untimed rounds first (page cache, the daemon's first answers).
    var warmUpRounds = 5
    /// A second `kblink` timed in the same rounds: the packaged one (`scripts/package`, the Swift runtime linked
    /// statically), extracted with `dpkg-deb -x`.
    var packagedKBlink: String?

    /// The goals of issue 29 on this machine, in seconds.
    static let versionGoal = 0.003
    static let statusGoal = 0.006

    private struct Round: Sendable {
        var version: ChildProcess.Finished
        var status: ChildProcess.Finished
        var statusJSON: ChildProcess.Finished
        var setByName: ChildProcess.Finished
        var setByAddress: ChildProcess.Finished
        var busctl: ChildProcess.Finished
        var baseline: ChildProcess.Finished
        var packagedVersion: ChildProcess.Finished?
        var packagedStatus: ChildProcess.Finished?
        var packagedSetByName: ChildProcess.Finished?
    }

    func run() async throws -> String {
        let binaries = try BuiltBinaries.locate()
        let busctl = "/usr/bin/busctl"
        guard access(busctl, X_OK) == 0 else { throw BenchError("\(busctl) is missing (Debian's systemd package)") }
        let bus = try PrivateBusDaemon()
        defer { bus.stop() }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let config = try scratch.write("kblinkd.conf", "")
        let daemon = try ChildProcess.start(
            binaries.kblinkdDemo, ["--bus", bus.address, "--state-dir", scratch.path, "--config", config],
            environment: ChildProcess.environment([], removing: ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]),
            captureOutput: false, errorPath: scratch.path + "/kblinkd-demo.log")
        defer { daemon.stop() }
        let environment = ChildProcess.environment([], removing: ["DBUS_SYSTEM_BUS_ADDRESS"])
        let kblink = binaries.kblink

        // Until the demo answers with its keyboards: status then does the work it does on a user's machine.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        while true {
            let probe = try ChildProcess.run(
                kblink, ["--bus", bus.address, "list", "--json"], environment: environment)
            if probe.status == 0, probe.outputText.contains("\"Aula F87\"") { break }
            guard clock.now < deadline else {
                throw BenchError("kblinkd-demo did not list the Aula F87 within 60 s: \(probe.outputText.prefix(200))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }

        let address = bus.address
        if let packagedKBlink = packagedKBlink, access(packagedKBlink, X_OK) != 0 {
            throw BenchError("--packaged-kblink \(packagedKBlink) is not an executable file")
        }
        @Sendable func checked(
            _ arguments: [String], expecting text: String, binary: String = kblink
        ) throws -> ChildProcess.Finished {
            let finished = try ChildProcess.run(binary, arguments, environment: environment)
            guard finished.status == 0, finished.outputText.contains(text) else {
                throw BenchError(
                    "kblink \(arguments.joined(separator: " ")) exited \(finished.status): "
                        + "\(finished.outputText.prefix(200))")
            }
            return finished
        }
        let aula = SimulatedDevice.aulaF87.address.description
        let measured = await blocking { [rounds, warmUpRounds, packagedKBlink] in
            Result { () throws -> [Round] in
                var timed: [Round] = []
                for index in 0..<(warmUpRounds + rounds) {
                    // A different action each round and a key of its own for each command: every edit changes the
                    // draft and is saved (an edit that changes nothing answers without writing the profile).
                    let action = index.isMultiple(of: 2) ? "KC_LCTL" : "KC_CAPS"
                    let round = Round(
                        version: try checked(["--version"], expecting: "kblink"),
                        status: try checked(["--bus", address, "status"], expecting: "kblinkd"),
                        statusJSON: try checked(
                            ["--bus", address, "status", "--json"], expecting: "\"hardwareKeyboardAttached\""),
                        setByName: try checked(
                            ["--bus", address, "keymap", "set", "aula", "CAPS", action], expecting: "now does"),
                        setByAddress: try checked(
                            ["--bus", address, "keymap", "set", aula, "ESC", action], expecting: "now does"),
                        busctl: try ChildProcess.run(busctl, ["--version"], environment: environment),
                        baseline: try ChildProcess.run("/bin/true", [], environment: environment),
                        packagedVersion: try packagedKBlink.map {
                            try checked(["--version"], expecting: "kblink", binary: $0)
                        },
                        packagedStatus: try packagedKBlink.map {
                            try checked(["--bus", address, "status"], expecting: "kblinkd", binary: $0)
                        },
                        packagedSetByName: try packagedKBlink.map {
                            try checked(
                                ["--bus", address, "keymap", "set", "aula", "TAB", action], expecting: "now does",
                                binary: $0)
                        })
                    if index >= warmUpRounds { timed.append(round) }
                }
                return timed
            }
        }
        return Self.report(try measured.get())
    }

    private static func report(_ rounds: [Round]) -> String {
        func row(_ name: String, _ runs: [ChildProcess.Finished]) -> [String] {
            let wall = Summary(runs.map(\.wallSeconds))
            let cpu = Summary(runs.map(\.cpuSeconds))
            let ratio = Summary(zip(runs, rounds).map { $0.wallSeconds / $1.busctl.wallSeconds })
            return [
                name, Format.milliseconds(wall.min), Format.milliseconds(wall.median), Format.milliseconds(cpu.median),
                Format.number(ratio.median, decimals: 2),
            ]
        }
        let version = Summary(rounds.map(\.version.wallSeconds)).median
        let status = Summary(rounds.map(\.status.wallSeconds)).median
        let packagedVersion = rounds.compactMap(\.packagedVersion)
        let packagedStatus = rounds.compactMap(\.packagedStatus)
        let packagedSetByName = rounds.compactMap(\.packagedSetByName)
        var packagedRows: [[String]] = []
        var packagedVerdicts = ""
        if packagedVersion.count == rounds.count, packagedStatus.count == rounds.count,
            packagedSetByName.count == rounds.count
        {
            packagedRows = [
                row("kblink --version (packaged, static runtime)", packagedVersion),
                row("kblink status (packaged, static runtime)", packagedStatus),
                row("kblink keymap set NAME (packaged, static runtime)", packagedSetByName),
            ]
            packagedVerdicts =
                "\nGoal, packaged kblink --version: \(verdict(Summary(packagedVersion.map(\.wallSeconds)).median, versionGoal))."
                + "\nGoal, packaged kblink status: \(verdict(Summary(packagedStatus.map(\.wallSeconds)).median, statusGoal))."
        }
        func verdict(_ median: Double, _ goal: Double) -> String {
            "\(Format.milliseconds(median)) ms against \(Format.milliseconds(goal)) ms: "
                + (median <= goal ? "met" : "not met")
        }
        return "kblink start-up, \(rounds.count) rounds, each command once per round\n\n"
            + Format.table(
                ["whole process, start to exit", "min ms", "median ms", "its CPU ms (median)", "/ busctl (median)"],
                [
                    row("kblink --version", rounds.map(\.version)),
                    row("kblink status (kblinkd-demo)", rounds.map(\.status)),
                    row("kblink status --json (kblinkd-demo)", rounds.map(\.statusJSON)),
                    row("kblink keymap set NAME (kblinkd-demo)", rounds.map(\.setByName)),
                    row("kblink keymap set ADDRESS (kblinkd-demo)", rounds.map(\.setByAddress)),
                ] + packagedRows + [
                    row("busctl --version", rounds.map(\.busctl)),
                    row("/bin/true", rounds.map(\.baseline)),
                ])
            + "\n\nGoal: kblink --version at most 3 ms: \(verdict(version, versionGoal))."
            + "\nGoal: kblink status at most 6 ms: \(verdict(status, statusGoal))." + packagedVerdicts
    }
}
