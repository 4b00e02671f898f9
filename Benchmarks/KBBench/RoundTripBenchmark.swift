import CReference
import KeyboardLink

#if canImport(Glibc)
    import Glibc
#endif

/// Method-call round trips per second through a private dbus-daemon: the Swift client and server against the C
/// reference pair, plus the two mixed pairs that show which side costs what.
struct RoundTripBenchmark: Sendable {
    /// Rounds per configuration; configurations are interleaved round by round so that load changes on a shared
    /// machine hit every pair alike.
    var rounds = 5
    /// Calls per round with one call in flight.
    var sequentialCalls = 3_000
    /// Calls per round with ``inFlight`` calls in flight.
    var pipelinedCalls = 12_000
    /// Outstanding calls in the concurrent mode.
    var inFlight = 64
    /// The client -> server pairs to run (all six by default; fewer for profiling).
    var pairs: [(client: Side, server: Side)] = [
        (.c, .c), (.swift, .swift), (.swiftOnConnection, .swift), (.swiftOnConnection, .swiftInvocation),
        (.swift, .c), (.c, .swift),
    ]
    /// Only one call in flight (for profiling).
    var sequentialOnly = false
    /// The in-flight counts to run.
    var flights: [Int] { sequentialOnly ? [1] : [1, inFlight] }

    enum Side: String, Sendable {
        case c = "C"
        /// The Swift client as code calls it by default: the calling task runs on the cooperative pool.
        case swift = "Swift"
        /// The Swift client with its calling task on the connection's executor (`BusConnection.taskExecutor`).
        case swiftOnConnection = "Swift@conn"
        /// A server only: the Swift server with the method declared by a `MethodInvocation` handler (a `Message`
        /// decoded per call) instead of Swift argument and result types.
        case swiftInvocation = "Swift(inv)"

        init?(argument: Substring) {
            switch argument {
            case "c": self = .c
            case "swift": self = .swift
            case "swift@conn": self = .swiftOnConnection
            case "swiftinv": self = .swiftInvocation
            default: return nil
            }
        }
    }

    /// Parses `swift-swift,swift@conn-swift,c-c` (client-server pairs).
    static func parsePairs(_ text: String) -> [(client: Side, server: Side)]? {
        var pairs: [(client: Side, server: Side)] = []
        for item in text.split(separator: ",") {
            let sides = item.lowercased().split(separator: "-").map(Side.init(argument:))
            guard sides.count == 2, let client = sides[0], let server = sides[1], server != .swiftOnConnection,
                client != .swiftInvocation
            else {
                return nil
            }
            pairs.append((client, server))
        }
        return pairs.isEmpty ? nil : pairs
    }

    struct Configuration: Hashable, Sendable {
        var client: Side
        var server: Side
        var inFlight: Int

        var name: String { "\(client.rawValue) -> \(server.rawValue)" }
    }

    /// The Swift servers' connection labels, which name their threads (Linux keeps 15 bytes: keep them distinct).
    static let swiftServerLabel = "kblink-bench.server"
    static let swiftInvocationServerLabel = "kblink-bench.inv-server"

    /// Issue 2's goal: a Swift pair's round trips per second as a share of the C pair's.
    static let goal = 0.9

    static let path = try! ObjectPath(KBREF_BENCH_PATH)
    static let interface = try! InterfaceName(KBREF_BENCH_INTERFACE)
    static let member = try! MemberName(KBREF_BENCH_MEMBER)

    /// The Swift server's interface: the same Add(ii) -> i the C server answers, answered from memory like the C
    /// server's (a synchronous handler: no task per call), declared with Swift types.
    static func declaration() -> DBusInterface {
        DBusInterface(
            interface,
            methods: [
                DBusMethod(KBREF_BENCH_MEMBER, arguments: ["a", "b"], result: "sum") { (a: Int32, b: Int32) in
                    a &+ b
                }
            ])
    }

    /// The same method declared with a `MethodInvocation` handler, which the server answers through a `Message`.
    static func invocationDeclaration() -> DBusInterface {
        DBusInterface(
            interface,
            methods: [
                DBusMethod(
                    KBREF_BENCH_MEMBER, inputs: [DBusArgument("a", .int32), DBusArgument("b", .int32)],
                    outputs: [DBusArgument("sum", .int32)],
                    synchronousHandler: { call in
                        let (a, b) = try call.decode(Int32.self, Int32.self)
                        return [.int32(a &+ b)]
                    })
            ])
    }

    /// Runs every configuration and returns the report.
    func run() async throws -> String {
        let daemon = try PrivateBusDaemon()
        defer { daemon.stop() }
        let address = daemon.address
        let swiftServer = try await BusConnection.connect(to: .address(address), label: Self.swiftServerLabel)
        try await swiftServer.export(Self.declaration(), at: Self.path)
        let invocationServer = try await BusConnection.connect(
            to: .address(address), label: Self.swiftInvocationServerLabel)
        try await invocationServer.export(Self.invocationDeclaration(), at: Self.path)
        let swiftClient = try await BusConnection.connect(to: .address(address), label: "kblink-bench.client")
        let (cServer, cServerName) = try await Self.startCServer(address)
        let cClient = try await Self.openCClient(address)
        defer {
            kbref_client_close(cClient.pointer)
            kbref_server_stop(cServer.pointer)
        }
        let servers: [Side: BusName] = [
            .swift: swiftServer.uniqueName, .swiftInvocation: invocationServer.uniqueName, .c: cServerName,
        ]
        // Each server answers on one thread: its CPU time says what the server side costs per call.
        let serverThreads: [Side: pid_t] = [
            .swift: ThreadCPU.threads(named: String(decoding: Self.swiftServerLabel.utf8.prefix(15), as: UTF8.self))
                .first,
            .swiftInvocation: ThreadCPU.threads(
                named: String(decoding: Self.swiftInvocationServerLabel.utf8.prefix(15), as: UTF8.self)
            ).first,
            .c: ThreadCPU.threads(named: "kbref.server").first,
        ].compactMapValues { $0 }

        var configurations: [Configuration] = []
        for flight in flights {
            for (client, server) in pairs {
                configurations.append(Configuration(client: client, server: server, inFlight: flight))
            }
        }
        // Warm-up: connections, caches, the cooperative pool.
        for configuration in configurations {
            _ = try await measure(
                configuration, calls: calls(for: configuration) / 10, swiftClient: swiftClient, cClient: cClient,
                servers: servers)
        }
        var rates: [Configuration: [Double]] = [:]
        var cpu: [Configuration: [Double]] = [:]
        var daemonCPU: [Configuration: [Double]] = [:]
        var usages: [Configuration: [ProcessCPU.Usage]] = [:]
        var serverCPU: [Configuration: [Double]] = [:]
        for _ in 0..<rounds {
            for configuration in configurations {
                let count = calls(for: configuration)
                let before = ProcessCPU.now()
                let usageBefore = ProcessCPU.Usage.now()
                let serverThread = serverThreads[configuration.server]
                let serverBefore = serverThread.flatMap(ThreadCPU.nanoseconds(of:))
                let daemonBefore = ProcessCPU.of(pid: daemon.pid)
                let seconds = try await measure(
                    configuration, calls: count, swiftClient: swiftClient, cClient: cClient, servers: servers)
                rates[configuration, default: []].append(Double(count) / seconds)
                cpu[configuration, default: []].append((ProcessCPU.now() - before) / Double(count))
                usages[configuration, default: []].append(ProcessCPU.Usage.now().since(usageBefore, per: count))
                if let serverThread, let serverBefore, let serverAfter = ThreadCPU.nanoseconds(of: serverThread) {
                    serverCPU[configuration, default: []].append((serverAfter - serverBefore) / 1e9 / Double(count))
                }
                if let daemonBefore, let daemonAfter = ProcessCPU.of(pid: daemon.pid) {
                    daemonCPU[configuration, default: []].append((daemonAfter - daemonBefore) / Double(count))
                }
            }
        }
        let pending = await swiftClient.pendingCallCount
        await swiftClient.close()
        await swiftServer.close()
        await invocationServer.close()
        guard pending == 0 else { throw BenchError("\(pending) Swift calls still pending after the run") }
        return report(configurations, rates, cpu, daemonCPU) + Self.usageReport(configurations, usages, serverCPU)
            + (await Self.handoffReport())
    }

    /// What one thread waking another costs here (C, no D-Bus): the unit every round trip above is made of.
    static func handoffReport() async -> String {
        let roundTrips: Int64 = 5_000
        var samples: [Double] = []
        for _ in 0..<3 {
            let nanoseconds = await blocking { kbref_thread_handoff_nanoseconds(roundTrips) }
            if nanoseconds > 0 { samples.append(Double(nanoseconds) / 1_000) }
        }
        guard !samples.isEmpty else { return "\nThread hand-off: could not be measured (no pipe or thread)\n" }
        let summary = Summary(samples)
        return "\nThread hand-off on this machine (C, no D-Bus: two threads wake each other through a pipe each, in"
            + " poll; 3 x \(roundTrips) round trips): median " + Format.number(summary.median, decimals: 1)
            + " us per hand-off (" + Format.number(summary.min, decimals: 1) + "-"
            + Format.number(summary.max, decimals: 1) + ").\nA round trip with 1 in flight is four hand-offs for"
            + " the C pair (client -> bus -> server -> bus -> client) and Swift@conn; the default Swift client adds"
            + " two (its send goes to the connection's thread, its reply resumes the calling task on a pool"
            + " thread).\n"
    }

    private func calls(for configuration: Configuration) -> Int {
        configuration.inFlight <= 1 ? sequentialCalls : pipelinedCalls
    }

    private func report(
        _ configurations: [Configuration], _ rates: [Configuration: [Double]], _ cpu: [Configuration: [Double]],
        _ daemonCPU: [Configuration: [Double]]
    ) -> String {
        var rows: [[String]] = []
        var ratios: [String] = []
        var verdicts: [String] = []
        for configuration in configurations {
            let summary = Summary(rates[configuration] ?? [])
            let reference = Configuration(client: .c, server: .c, inFlight: configuration.inFlight)
            let referenceSummary = Summary(rates[reference] ?? [])
            let hasReference = !referenceSummary.samples.isEmpty
            rows.append([
                configuration.name, "\(configuration.inFlight)", Format.number(Double(calls(for: configuration))),
                Format.number(summary.min), Format.number(summary.median), Format.number(summary.mean),
                hasReference ? Format.number(summary.median / referenceSummary.median, decimals: 2) : "-",
                Format.number(Summary(cpu[configuration] ?? []).median * 1e6, decimals: 1),
                daemonCPU[configuration].map { Format.number(Summary($0).median * 1e6, decimals: 1) } ?? "-",
            ])
            if hasReference && configuration.client != .c && configuration.server != .c {
                // Rounds are interleaved, so round i of each pair ran under the same load: compare them pairwise.
                let paired = Summary(
                    zip(rates[configuration] ?? [], rates[reference] ?? []).map { swift, c in swift / c })
                ratios.append(
                    "\(configuration.name) / C pair, \(configuration.inFlight) in flight: median of rates "
                        + Format.number(summary.median / referenceSummary.median, decimals: 2)
                        + "; per round min/median/mean " + Format.number(paired.min, decimals: 2) + " / "
                        + Format.number(paired.median, decimals: 2) + " / " + Format.number(paired.mean, decimals: 2))
                if configuration.server == .swift {
                    let ratio = summary.median / referenceSummary.median
                    verdicts.append(
                        "\(configuration.name), \(configuration.inFlight) in flight: "
                            + Format.number(ratio, decimals: 3) + (ratio >= Self.goal ? " (met)" : " (not met)"))
                }
            }
        }
        let table = Format.table(
            [
                "client -> server", "in flight", "calls/round", "min calls/s", "median calls/s", "mean calls/s",
                "vs C->C", "CPU us/call", "bus CPU us/call",
            ],
            rows)
        return "Method-call round trips, Add(ii) -> i through a private dbus-daemon (\(rounds) rounds, interleaved)\n"
            + table + "\n" + ratios.joined(separator: "\n")
            + "\nSwift@conn: the Swift client with its calling tasks on the connection's executor"
            + " (withTaskExecutorPreference(connection.taskExecutor)); Swift: on the cooperative pool, the default."
            + "\nServer Swift: Add declared with Swift types (answered from the libdbus message); Swift(inv): declared"
            + " with a MethodInvocation handler (answered through a Message)."
            + "\nCPU us/call: user + system time of this process (client and server, not the dbus-daemon) per call,"
            + " median over rounds.\nbus CPU us/call: user + system time of the dbus-daemon per call (10 ms ticks),"
            + " median over rounds.\nGoal: Swift pair >= " + Format.number(Self.goal, decimals: 2)
            + " of the C pair (median of rates). "
            + (verdicts.isEmpty ? "No Swift pair ran." : "This run: " + verdicts.joined(separator: "; ") + ".") + "\n"
    }

    /// Where this process's CPU went, per call (medians over rounds): user and system time, minor page faults,
    /// voluntary and involuntary context switches, and the split between the server's thread and the rest of the
    /// process (the client: its thread, and for the default Swift client the cooperative pool). Explains a
    /// CPU-per-call difference that instruction counts do not.
    static func usageReport(
        _ configurations: [Configuration], _ usages: [Configuration: [ProcessCPU.Usage]],
        _ serverCPU: [Configuration: [Double]]
    ) -> String {
        let rows = configurations.map { configuration -> [String] in
            let samples = usages[configuration] ?? []
            func median(_ field: (ProcessCPU.Usage) -> Double, scale: Double, decimals: Int) -> String {
                Format.number(Summary(samples.map(field)).median * scale, decimals: decimals)
            }
            // Round by round: the whole process minus the server's thread.
            let server = serverCPU[configuration] ?? []
            let client = zip(samples, server).map { usage, server in usage.user + usage.system - server }
            return [
                configuration.name, "\(configuration.inFlight)",
                median(\.user, scale: 1e6, decimals: 1), median(\.system, scale: 1e6, decimals: 1),
                server.isEmpty ? "-" : Format.number(Summary(server).median * 1e6, decimals: 1),
                client.isEmpty ? "-" : Format.number(Summary(client).median * 1e6, decimals: 1),
                median(\.minorFaults, scale: 1, decimals: 3), median(\.voluntarySwitches, scale: 1, decimals: 2),
                median(\.involuntarySwitches, scale: 1, decimals: 2),
            ]
        }
        return "\nThis process per call (getrusage; the server thread from its schedstat; medians over rounds)\n"
            + Format.table(
                [
                    "client -> server", "in flight", "user us", "system us", "server thread us", "client us",
                    "minor faults", "voluntary cs", "involuntary cs",
                ],
                rows) + "\n"
    }

    /// Runs one round and returns its wall-clock time in seconds.
    private func measure(
        _ configuration: Configuration, calls: Int, swiftClient: BusConnection, cClient: CHandle,
        servers: [Side: BusName]
    ) async throws -> Double {
        guard let destination = servers[configuration.server] else { throw BenchError("no server") }
        switch configuration.client {
        case .swift, .swiftOnConnection:
            let proxy = DBusProxy(
                connection: swiftClient, destination: destination, path: Self.path, interface: Self.interface)
            let clock = ContinuousClock()
            let start = clock.now
            if configuration.client == .swiftOnConnection {
                try await withTaskExecutorPreference(swiftClient.taskExecutor) {
                    try await Self.swiftCalls(proxy, count: calls, inFlight: configuration.inFlight)
                }
            } else {
                try await Self.swiftCalls(proxy, count: calls, inFlight: configuration.inFlight)
            }
            return (clock.now - start).seconds
        case .swiftInvocation:
            throw BenchError("Swift(inv) is a server, not a client")
        case .c:
            let flight = Int32(configuration.inFlight)
            let (answered, seconds) = await blocking { () -> (Int64, Double) in
                let clock = ContinuousClock()
                let start = clock.now
                let answered = kbref_client_add_calls(cClient.pointer, destination.rawValue, Int64(calls), flight)
                return (answered, (clock.now - start).seconds)
            }
            guard answered == Int64(calls) else {
                throw BenchError("the C client got \(answered) correct answers of \(calls) from \(configuration.name)")
            }
            return seconds
        }
    }

    /// Makes `count` checked Add calls, one at a time or from `inFlight` concurrent tasks.
    static func swiftCalls(_ proxy: DBusProxy, count: Int, inFlight: Int) async throws {
        @Sendable func call(_ index: Int) async throws {
            let a = Int32(truncatingIfNeeded: index)
            let sum = try await proxy.call(member, [.int32(a), .int32(1)], returning: Int32.self)
            guard sum == a &+ 1 else { throw BenchError("Add(\(a), 1) answered \(sum)") }
        }
        if inFlight <= 1 {
            for index in 0..<count { try await call(index) }
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<inFlight {
                group.addTask {
                    for index in stride(from: worker, to: count, by: inFlight) { try await call(index) }
                }
            }
            try await group.waitForAll()
        }
    }

    static func startCServer(_ address: String) async throws -> (CHandle, BusName) {
        let started = await blocking { () -> (CHandle?, String) in
            var error = [CChar](repeating: 0, count: 512)
            guard let server = kbref_server_start(address, &error, error.count) else {
                return (nil, cText(error))
            }
            return (CHandle(pointer: server), String(cString: kbref_server_unique_name(server)))
        }
        guard let handle = started.0 else { throw BenchError("C server: \(started.1)") }
        return (handle, try BusName(started.1))
    }

    static func openCClient(_ address: String) async throws -> CHandle {
        let opened = await blocking { () -> (CHandle?, String) in
            var error = [CChar](repeating: 0, count: 512)
            guard let client = kbref_client_open(address, &error, error.count) else { return (nil, cText(error)) }
            return (CHandle(pointer: client), "")
        }
        guard let handle = opened.0 else { throw BenchError("C client: \(opened.1)") }
        return handle
    }
}

/// The text of a NUL-terminated C buffer.
func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
