import CReference
import KeyboardLink

/// Time per `GetManagedObjects` reply of BlueZ-like devices exported by our object server through a private bus,
/// as our client receives and decodes it, next to the C reference client receiving (and walking) the same reply.
///
/// Each reply is timed from two servers: our Swift object server, which builds the reply for every call, and the
/// C replay server, which answers with a copy of the reply our server gave it once (same bytes, almost no server
/// time), so that the client's share stands out.
struct ManagedObjectsBenchmark: Sendable {
    /// Devices exported under the ObjectManager.
    var devices = 1_000
    /// Timed replies per row (after three warm-up rounds).
    var iterations = 30

    /// The typed form a caller turns the reply into.
    typealias ManagedObjects = [ObjectPath: [String: [String: DBusValue]]]

    private struct Sample {
        /// Our client's `call`: the reply received, its body kept as bytes (no values decoded yet).
        var swiftCall: Double
        /// `reply.decode(ManagedObjects.self)` on that reply: typed straight from the wire bytes.
        var swiftTyped: Double
        /// `Message(marshalled:)` on the reply's bytes: libdbus copies and validates them (what it does on receipt),
        /// then we read the header and copy the message out (what our client does with every received message).
        var swiftDemarshal: Double
        /// `decode(ManagedObjects.self)` on the demarshalled message.
        var swiftDemarshalTyped: Double
        /// `body` of the demarshalled message: the dynamic `DBusValue` form, built from the wire bytes.
        var swiftDynamic: Double
        /// `ManagedObjects(dbusValue:)` from that dynamic form (the typed path before session 2).
        var swiftDynamicTyped: Double
        var cReceive: Double
        var cWalk: Double
        /// The C walk alone, timed inside the C function.
        var cWalkOnly: Double
        /// `dbus_message_demarshal` of the same bytes, timed inside C: libdbus's copy and validation alone.
        var cDemarshal: Double
        /// The C walk of the demarshalled message, timed inside C.
        var cDemarshalWalk: Double
    }

    func run() async throws -> String {
        let daemon = try PrivateBusDaemon()
        defer { daemon.stop() }
        let server = try await BusConnection.connect(to: .address(daemon.address), label: "kblink-bench.server")
        await server.addObjectManager(at: .root)
        for index in 0..<devices {
            let (path, declaration) = BlueZDevices.device(index)
            try await server.export(declaration, at: path)
        }
        let client = try await BusConnection.connect(to: .address(daemon.address), label: "kblink-bench.client")
        let cClient = try await RoundTripBenchmark.openCClient(daemon.address)
        defer { kbref_client_close(cClient.pointer) }
        let destination = server.uniqueName

        // Check the reply once: every device, every property, the values we exported.
        let check = try await Self.callGetManagedObjects(client, destination)
        let typed = try check.decode(ManagedObjects.self)
        let (probePath, _) = BlueZDevices.device(devices - 1)
        guard typed.count == devices,
            typed.values.allSatisfy({ $0[BlueZDevices.interface.rawValue]?.count == BlueZDevices.propertyCount }),
            typed[probePath]?[BlueZDevices.interface.rawValue]?["Address"] == .string(BlueZDevices.address(devices - 1))
        else { throw BenchError("the GetManagedObjects reply does not hold the exported devices") }
        let (values, bytes) = await blocking { () -> (Int64, Int64) in
            var bytes: Int64 = 0
            let values = kbref_client_get_managed_objects(cClient.pointer, destination.rawValue, "/", 1, nil, &bytes)
            return (values, bytes)
        }
        guard values > 0 else { throw BenchError("the C client could not read the reply") }

        let replay = try await Self.startReplayServer(daemon.address, source: destination)
        defer { kbref_server_stop(replay.0.pointer) }
        let replayed = try await Self.callGetManagedObjects(client, replay.1)
        guard replayed.body == check.body else { throw BenchError("the replayed reply differs from the original") }

        var fromSwift: [Sample] = []
        var fromReplay: [Sample] = []
        for iteration in 0..<(iterations + 3) {
            let swiftSample = try await sample(client, cClient, destination)
            let replaySample = try await sample(client, cClient, replay.1)
            if iteration >= 3 {
                fromSwift.append(swiftSample)
                fromReplay.append(replaySample)
            }
        }
        await client.close()
        await server.close()
        return "GetManagedObjects of \(devices) BlueZ-like devices (\(BlueZDevices.propertyCount) properties each): "
            + "reply \(Format.number(Double(bytes))) bytes, \(values) basic values, \(iterations) replies per row\n\n"
            + report(fromSwift, server: "our Swift object server (builds the reply for every call)") + "\n"
            + report(fromReplay, server: "the C replay server (sends a copy of the same reply)")
            + "\nSubtracting rows subtract reply by reply. (a) + (b) is what our client does with a received reply"
            + " (libdbus validates on receipt as dbus_message_demarshal does); (c) + (d) is the same for the C client."
            + "\nGoal: decoding under 5 ms per reply.\n"
    }

    /// One reply of each kind from `destination`, back to back.
    private func sample(_ client: BusConnection, _ cClient: CHandle, _ destination: BusName) async throws -> Sample {
        let clock = ContinuousClock()
        var start = clock.now
        let reply = try await Self.callGetManagedObjects(client, destination)
        let swiftCall = (clock.now - start).seconds
        start = clock.now
        let objects = try reply.decode(ManagedObjects.self)
        let swiftTyped = (clock.now - start).seconds
        guard objects.count == devices else { throw BenchError("\(objects.count) devices in a reply") }
        let bytes = try reply.marshalled()

        start = clock.now
        let decoded = try Message(marshalled: bytes)
        let swiftDemarshal = (clock.now - start).seconds
        start = clock.now
        let decodedObjects = try decoded.decode(ManagedObjects.self)
        let swiftDemarshalTyped = (clock.now - start).seconds
        start = clock.now
        let body = decoded.body
        let swiftDynamic = (clock.now - start).seconds
        guard body.count == 1 else { throw BenchError("the demarshalled reply has \(body.count) arguments") }
        start = clock.now
        let viaValues = try ManagedObjects(dbusValue: body[0])
        let swiftDynamicTyped = (clock.now - start).seconds
        guard decodedObjects == objects, viaValues == objects else {
            throw BenchError("the demarshalled reply decodes to other values")
        }

        let (cDemarshal, cDemarshalWalk) = try Self.timeCDemarshal(bytes)
        let (cReceive, _) = try await Self.timeC(cClient, destination, walk: false)
        let (cWalk, cWalkOnly) = try await Self.timeC(cClient, destination, walk: true)
        return Sample(
            swiftCall: swiftCall, swiftTyped: swiftTyped, swiftDemarshal: swiftDemarshal,
            swiftDemarshalTyped: swiftDemarshalTyped, swiftDynamic: swiftDynamic, swiftDynamicTyped: swiftDynamicTyped,
            cReceive: cReceive, cWalk: cWalk, cWalkOnly: cWalkOnly, cDemarshal: cDemarshal,
            cDemarshalWalk: cDemarshalWalk)
    }

    /// `dbus_message_demarshal` of `bytes` and the walk of every value, each timed inside C.
    private static func timeCDemarshal(_ bytes: [UInt8]) throws -> (Double, Double) {
        var demarshal: Int64 = 0
        var walk: Int64 = 0
        let values = bytes.withUnsafeBufferPointer {
            kbref_demarshal($0.baseAddress, Int64($0.count), 1, &demarshal, &walk)
        }
        guard values > 0 else { throw BenchError("the C reference could not demarshal the reply") }
        return (Double(demarshal) / 1e9, Double(walk) / 1e9)
    }

    private func report(_ samples: [Sample], server: String) -> String {
        func row(_ name: String, _ values: [Double]) -> [String] {
            let summary = Summary(values)
            return [
                name, Format.milliseconds(summary.min), Format.milliseconds(summary.median),
                Format.milliseconds(summary.mean),
            ]
        }
        return "From \(server):\n"
            + Format.table(
                ["per reply", "min ms", "median ms", "mean ms"],
                [
                    row("Swift: call, reply received (body kept as bytes)", samples.map(\.swiftCall)),
                    row("Swift: decode(ManagedObjects) of that reply, typed from the bytes", samples.map(\.swiftTyped)),
                    row("Swift: call + typed decode", samples.map { $0.swiftCall + $0.swiftTyped }),
                    row("C: call, reply received (no decoding)", samples.map(\.cReceive)),
                    row("C: call, every value read with DBusMessageIter", samples.map(\.cWalk)),
                    row(
                        "Swift call + typed decode - C receive",
                        samples.map { $0.swiftCall + $0.swiftTyped - $0.cReceive }),
                    row("C walk only (timed inside C)", samples.map(\.cWalkOnly)),
                    row(
                        "(a) Swift: Message(marshalled:) (libdbus validation + our copy)", samples.map(\.swiftDemarshal)
                    ),
                    row(
                        "(b) Swift: decode(ManagedObjects) of (a), typed from the bytes",
                        samples.map(\.swiftDemarshalTyped)),
                    row(
                        "(a) + (b): a received reply decoded, typed",
                        samples.map { $0.swiftDemarshal + $0.swiftDemarshalTyped }),
                    row("(c) C: dbus_message_demarshal (libdbus validation + copy)", samples.map(\.cDemarshal)),
                    row("(d) C: DBusMessageIter walk of (c)", samples.map(\.cDemarshalWalk)),
                    row("(c) + (d): the C counterpart of (a) + (b)", samples.map { $0.cDemarshal + $0.cDemarshalWalk }),
                    row(
                        "(a) + (b) - (c): our share, without libdbus's validation",
                        samples.map {
                            $0.swiftDemarshal + $0.swiftDemarshalTyped - $0.cDemarshal
                        }),
                    row("Swift: body of (a), the DBusValue tree", samples.map(\.swiftDynamic)),
                    row("Swift: ManagedObjects(dbusValue:) from that tree", samples.map(\.swiftDynamicTyped)),
                ]) + "\n"
    }

    static func callGetManagedObjects(_ client: BusConnection, _ destination: BusName) async throws -> Message {
        try await client.call(
            destination: destination, path: .root, interface: .objectManager,
            member: MemberName("GetManagedObjects"))
    }

    static func startReplayServer(_ address: String, source: BusName) async throws -> (CHandle, BusName) {
        let started = await blocking { () -> (CHandle?, String) in
            var error = [CChar](repeating: 0, count: 512)
            guard let server = kbref_server_start_replaying(address, source.rawValue, "/", &error, error.count) else {
                return (nil, cText(error))
            }
            return (CHandle(pointer: server), String(cString: kbref_server_unique_name(server)))
        }
        guard let handle = started.0 else { throw BenchError("C replay server: \(started.1)") }
        return (handle, try BusName(started.1))
    }

    /// The C client's time for one call, and the time of its walk alone.
    private static func timeC(_ client: CHandle, _ destination: BusName, walk: Bool) async throws -> (Double, Double) {
        let (values, seconds, walkNanoseconds) = await blocking { () -> (Int64, Double, Int64) in
            let clock = ContinuousClock()
            let start = clock.now
            var walkNanoseconds: Int64 = 0
            let values = kbref_client_get_managed_objects(
                client.pointer, destination.rawValue, "/", walk ? 1 : 0, &walkNanoseconds, nil)
            return (values, (clock.now - start).seconds, walkNanoseconds)
        }
        guard values >= 0 else { throw BenchError("the C client's GetManagedObjects failed") }
        return (seconds, Double(walkNanoseconds) / 1e9)
    }
}
