import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// `BusConnection.limitCalls(_:)` and what the server decodes before a guard decides: on a real bus.
@Suite("Call limits: bodies measured before decoding, calls in flight per caller, arguments read after the guard")
struct CallLimitsTests {
    static let interface: InterfaceName = "org.example.Limited"
    static let path: ObjectPath = "/org/example/limited"

    /// Records every time a value of it is decoded.
    struct RecordedText: DBusRepresentable {
        static let decoded = Mutex(0)
        static var dbusType: DBusType { .string }
        let text: String
        init(dbusValue: DBusValue) throws {
            guard case .string(let text) = dbusValue else { throw DBusError.invalidArgs("not a string") }
            Self.decoded.withLock { $0 += 1 }
            self.text = text
        }
        var dbusValue: DBusValue { .string(text) }
    }

    func call(_ client: BusConnection, _ server: BusConnection, _ member: String, _ arguments: [DBusValue])
        async throws -> Message
    {
        try await client.call(
            destination: server.uniqueName, path: Self.path, interface: Self.interface, member: MemberName(member),
            arguments)
    }

    static func isLimitsExceeded(_ error: any Error) -> Bool {
        (error as? DBusError)?.name == .limitsExceeded
    }

    @Test("a call over the connection's body limit is LimitsExceeded; a method may accept more; Properties.Set too")
    func bodyLimits() async throws {
        try await withBus { _, server, client in
            let echo = DBusMethod("Echo", arguments: ["text"], result: "echo") { (text: String) -> String in text }
            let large = DBusMethod("Large", arguments: ["bytes"], result: "count") { (bytes: [UInt8]) -> UInt32 in
                UInt32(bytes.count)
            }
            try await server.export(
                DBusInterface(
                    Self.interface, methods: [echo, large.acceptingBodies(upTo: 1 << 20)],
                    properties: [
                        DBusProperty(
                            "Name", type: .string, access: .readWrite, initial: .string(""),
                            setter: { value, _ in value })
                    ]),
                at: Self.path)
            await server.limitCalls(CallLimits(maximumBodySize: 4096))

            #expect(try await call(client, server, "Echo", [.string("small")]).decode(String.self) == "small")
            await #expect {
                try await call(client, server, "Echo", [.string(String(repeating: "x", count: 5000))])
            } throws: { Self.isLimitsExceeded($0) }
            // An array is measured from its length, whatever it holds.
            let bytes = [UInt8](repeating: 7, count: 100_000)
            #expect(
                try await call(client, server, "Large", [.array(.byte, bytes.map { .byte($0) })]).decode(UInt32.self)
                    == 100_000)
            await #expect {
                try await call(client, server, "Large", [.array(.byte, Array(repeating: .byte(1), count: 2 << 20))])
            } throws: { Self.isLimitsExceeded($0) }
            // The standard interfaces obey the connection's limit: a large Set is refused before its value is read.
            let variants = DBusValue.array(.variant, Array(repeating: .variant(.byte(1)), count: 10_000))
            await #expect {
                try await client.call(
                    destination: server.uniqueName, path: Self.path, interface: .properties, member: "Set",
                    [.string(Self.interface.rawValue), .string("Name"), .variant(variants)])
            } throws: { Self.isLimitsExceeded($0) }
            // The server still answers.
            #expect(try await call(client, server, "Echo", [.string("still")]).decode(String.self) == "still")
        }
    }

    @Test("Properties.Set of the wrong type is InvalidArgs, read from the variant's signature alone")
    func setChecksTheTypeFirst() async throws {
        try await withBus { _, server, client in
            let setterRan = Mutex(false)
            try await server.export(
                DBusInterface(
                    Self.interface,
                    properties: [
                        DBusProperty(
                            "Name", type: .string, access: .readWrite, initial: .string(""),
                            setter: { value, _ in
                                setterRan.withLock { $0 = true }
                                return value
                            })
                    ]),
                at: Self.path)
            await #expect {
                try await client.call(
                    destination: server.uniqueName, path: Self.path, interface: .properties, member: "Set",
                    [.string(Self.interface.rawValue), .string("Name"), .variant(.array(.byte, [.byte(1)]))])
            } throws: { ($0 as? DBusError)?.name == .invalidArgs }
            #expect(!setterRan.withLock { $0 })
            try await client.call(
                destination: server.uniqueName, path: Self.path, interface: .properties, member: "Set",
                [.string(Self.interface.rawValue), .string("Name"), .variant(.string("kept"))])
            #expect(await server.property("Name", of: Self.interface, at: Self.path) == .string("kept"))
        }
    }

    @Test("a caller may have so many calls waiting; the next is LimitsExceeded, and a finished call frees its place")
    func callsInFlightPerCaller() async throws {
        try await withBus { bus, server, client in
            let gate = AsyncGate()
            let slow = DBusMethod("Slow", arguments: [], result: "done") { () async throws -> Bool in
                await gate.wait()
                return true
            }
            try await server.export(DBusInterface(Self.interface, methods: [slow]), at: Self.path)
            await server.limitCalls(CallLimits(maximumCallsInFlightPerCaller: 2))
            let first = Task { try await call(client, server, "Slow", []) }
            let second = Task { try await call(client, server, "Slow", []) }
            #expect(await eventually { await gate.waiting == 2 })
            await #expect {
                try await call(client, server, "Slow", [])
            } throws: { Self.isLimitsExceeded($0) }
            // Another caller has its own allowance.
            let other = try await bus.connect()
            let third = Task { try await call(other, server, "Slow", []) }
            #expect(await eventually { await gate.waiting == 3 })
            await gate.open()
            _ = try await (first.value, second.value, third.value)
            #expect(try await call(client, server, "Slow", []).decode(Bool.self))
            await other.close()
        }
    }

    @Test("a guarded method's arguments are decoded only once its guard let the call through")
    func argumentsAfterTheGuard() async throws {
        try await withBus { _, server, client in
            let refuse = Mutex(true)
            let method = DBusMethod("Guarded", arguments: ["text"], result: "echo") {
                (text: RecordedText) async throws -> String in text.text
            }
            let check: MethodGuard = { _ in
                if refuse.withLock({ $0 }) { throw DBusError(ErrorName("org.example.Error.Refused"), "no") }
                return { _ in }
            }
            try await server.export(DBusInterface(Self.interface, methods: [method.guarded(by: check)]), at: Self.path)
            let before = RecordedText.decoded.withLock { $0 }
            await #expect(throws: DBusError.self) { try await call(client, server, "Guarded", [.string("secret")]) }
            #expect(RecordedText.decoded.withLock { $0 } == before, "the arguments were decoded before the guard")
            refuse.withLock { $0 = false }
            #expect(try await call(client, server, "Guarded", [.string("open")]).decode(String.self) == "open")
            #expect(RecordedText.decoded.withLock { $0 } == before + 1)
        }
    }

    @Test("a signal from a sender a rule does not name never reaches it, and arg0 is compared without the rest")
    func signalsFromOthers() async throws {
        try await withBus { bus, server, client in
            let stranger = try await bus.connect()
            let rule = MatchRule(
                sender: server.uniqueName, path: Self.path, interface: Self.interface, member: "Changed",
                arg0: "wanted")
            let stream = try await client.subscribe(to: rule)
            var iterator = stream.makeAsyncIterator()
            let big = DBusValue.array(.variant, Array(repeating: .variant(.byte(1)), count: 50_000))
            // The stranger's copy, even to the client alone, and the server's with another arg0 are dropped.
            try await stranger.emitSignal(
                "Changed", of: Self.interface, at: Self.path, [.string("wanted"), big], to: client.uniqueName)
            try await server.emitSignal("Changed", of: Self.interface, at: Self.path, [.string("other"), big])
            try await server.emitSignal("Changed", of: Self.interface, at: Self.path, [.string("wanted"), .uint32(1)])
            let received = await iterator.next()
            #expect(received?.sender == server.uniqueName)
            #expect(received?.body == [.string("wanted"), .uint32(1)])
            await stranger.close()
        }
    }
}

/// Holds callers until opened; counts how many wait.
actor AsyncGate {
    private var continuations: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false
    private(set) var waiting = 0

    func wait() async {
        if isOpen { return }
        waiting += 1
        await withCheckedContinuation { continuations.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in continuations { continuation.resume() }
        continuations.removeAll()
    }
}
