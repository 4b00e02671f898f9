import KeyboardLink
import Synchronization
import Testing

/// `DBusMethod.guarded(by:)`: work put before a handler (kblinkd's authorization check) on a real bus.
@Suite("A guard runs before the handler, can refuse the call, and learns of its success")
struct GuardedMethodTests {
    static let interface: InterfaceName = "org.example.Guarded"
    static let path: ObjectPath = "/org/example/guarded"

    /// What happened, in order.
    final class Events: Sendable {
        let list = Mutex<[String]>([])
        func add(_ event: String) { list.withLock { $0.append(event) } }
        var all: [String] { list.withLock { $0 } }
    }

    static func serve(_ server: BusConnection, events: Events, refuse: Bool, handlerFails: Bool = false) async throws {
        let typed = DBusMethod("Typed", arguments: ["text"], result: "echo") {
            (call: MethodCallContext, text: String) async throws -> String in
            events.add("handler \(text)")
            if handlerFails { throw DBusError.failed("the handler failed") }
            return text
        }
        let untyped = DBusMethod("Untyped", inputs: [DBusArgument("text", .string)]) {
            (invocation: MethodInvocation) async throws -> [DBusValue] in
            events.add("handler \(invocation.arguments.first?.stringValue ?? "?")")
            if handlerFails { throw DBusError.failed("the handler failed") }
            return []
        }
        let check: MethodGuard = { call in
            events.add("guard \(call.path.rawValue) from \(call.sender?.rawValue.prefix(1) ?? "-")")
            if refuse { throw DBusError(ErrorName("org.example.Error.Refused"), "no") }
            return { failure in events.add(failure == nil ? "succeeded" : "failed") }
        }
        try await server.export(
            DBusInterface(Self.interface, methods: [typed.guarded(by: check), untyped.guarded(by: check)]),
            at: Self.path)
    }

    @Test("allowed: guard, handler, then the success hook, before the reply", arguments: ["Typed", "Untyped"])
    func allowed(method: String) async throws {
        try await withBus { _, server, client in
            let events = Events()
            try await Self.serve(server, events: events, refuse: false)
            try await client.call(
                destination: server.uniqueName, path: Self.path, interface: Self.interface,
                member: MemberName(method), [.string("hi")])
            #expect(events.all == ["guard /org/example/guarded from :", "handler hi", "succeeded"])
        }
    }

    @Test("refused: the caller gets the guard's error and the handler never runs", arguments: ["Typed", "Untyped"])
    func refused(method: String) async throws {
        try await withBus { _, server, client in
            let events = Events()
            try await Self.serve(server, events: events, refuse: true)
            await #expect {
                try await client.call(
                    destination: server.uniqueName, path: Self.path, interface: Self.interface,
                    member: MemberName(method), [.string("hi")])
            } throws: { ($0 as? DBusError)?.name.rawValue == "org.example.Error.Refused" }
            #expect(events.all == ["guard /org/example/guarded from :"])
        }
    }

    @Test("a failing handler: its error is the answer and the hook learns it failed")
    func handlerFails() async throws {
        try await withBus { _, server, client in
            let events = Events()
            try await Self.serve(server, events: events, refuse: false, handlerFails: true)
            await #expect(throws: DBusError.self) {
                try await client.call(
                    destination: server.uniqueName, path: Self.path, interface: Self.interface,
                    member: MemberName("Typed"), [.string("hi")])
            }
            #expect(events.all == ["guard /org/example/guarded from :", "handler hi", "failed"])
        }
    }

    @Test("arguments of the wrong type are refused before the guard runs")
    func signatureFirst() async throws {
        try await withBus { _, server, client in
            let events = Events()
            try await Self.serve(server, events: events, refuse: false)
            await #expect(throws: DBusError.self) {
                try await client.call(
                    destination: server.uniqueName, path: Self.path, interface: Self.interface,
                    member: MemberName("Typed"), [.uint32(1)])
            }
            #expect(events.all.isEmpty)
        }
    }
}
