import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// Methods whose handlers answer at once, from memory, without a task per call.
@Suite("Synchronous method handlers: answers, errors, no-reply calls, argument checks")
struct SynchronousHandlerTests {
    static let interface = InterfaceName("com.example.Counter")
    static let path = ObjectPath("/com/example/counter")

    /// Counts the calls its handlers ran.
    final class Counter: Sendable {
        let calls = Mutex(0)
        var count: Int { calls.withLock { $0 } }

        func declaration() -> DBusInterface {
            DBusInterface(
                SynchronousHandlerTests.interface,
                methods: [
                    DBusMethod(
                        "Add", inputs: [DBusArgument("a", .int32), DBusArgument("b", .int32)],
                        outputs: [DBusArgument("sum", .int32)],
                        synchronousHandler: { [self] call in
                            calls.withLock { $0 += 1 }
                            let (a, b) = try call.decode(Int32.self, Int32.self)
                            return [.int32(a &+ b)]
                        }),
                    DBusMethod(
                        "Refuse", inputs: [DBusArgument("why", .string)],
                        synchronousHandler: { [self] call in
                            calls.withLock { $0 += 1 }
                            throw DBusError(ErrorName("com.example.Error.Refused"), try call.decode(String.self))
                        }),
                    DBusMethod(
                        "Misdeclared", outputs: [DBusArgument("count", .uint32)],
                        synchronousHandler: { [self] _ in
                            calls.withLock { $0 += 1 }
                            return [.string("not a uint32")]
                        }),
                    DBusMethod(
                        "Split", inputs: [DBusArgument("text", .string)], outputs: [DBusArgument("text", .string)],
                        synchronousHandler: { call in [.string(try call.decode(String.self) + "\u{0}")] }),
                    DBusMethod(
                        "Bump",
                        synchronousHandler: { [self] _ in
                            calls.withLock { $0 += 1 }
                            return []
                        }),
                ])
        }
    }

    func proxy(_ client: BusConnection, _ server: BusConnection) -> DBusProxy {
        DBusProxy(connection: client, destination: server.uniqueName, path: Self.path, interface: Self.interface)
    }

    @Test("a synchronous handler answers, many times over, each call with its own result")
    func answers() async throws {
        try await withBus { _, server, client in
            let counter = Counter()
            try await server.export(counter.declaration(), at: Self.path)
            let sums = try await concurrentAdds(proxy(client, server), count: 500, adding: 7)
            #expect(sums.count == 500)
            #expect(sums.allSatisfy { $0.value == $0.key + 7 })
            #expect(counter.count == 500)
        }
    }

    @Test("an error thrown by a synchronous handler reaches the caller with its name and message")
    func thrownError() async throws {
        try await withBus { _, server, client in
            let counter = Counter()
            try await server.export(counter.declaration(), at: Self.path)
            let error = await expectDBusError(ErrorName("com.example.Error.Refused")) {
                try await proxy(client, server).call(MemberName("Refuse"), [.string("locked")])
            }
            #expect(error?.message == "locked")
        }
    }

    @Test("outputs of the wrong type become an internal-error reply naming both signatures")
    func wrongOutputs() async throws {
        try await withBus { _, server, client in
            let counter = Counter()
            try await server.export(counter.declaration(), at: Self.path)
            let error = await expectDBusError(.failed) {
                try await proxy(client, server).call(MemberName("Misdeclared"))
            }
            let message = error?.message ?? ""
            #expect(message.contains("'s'") && message.contains("'u'"), "\(message)")
        }
    }

    @Test("a result libdbus would refuse (a string holding NUL) is answered with InvalidArgs, not left to time out")
    func unsendableResult() async throws {
        try await withBus { _, server, client in
            try await server.export(Counter().declaration(), at: Self.path)
            let error = await expectDBusError(.invalidArgs) {
                try await proxy(client, server).call(
                    MemberName("Split"), [.string("a")], timeout: .seconds(5))
            }
            #expect(error?.message.contains("NUL") == true, "\(error?.message ?? "")")
        }
    }

    @Test("a call flagged no-reply still runs its handler, and gets no reply")
    func noReplyCall() async throws {
        try await withBus { _, server, client in
            let counter = Counter()
            try await server.export(counter.declaration(), at: Self.path)
            try await sendNoReplyCall("Bump", path: Self.path, interface: Self.interface, on: server, from: client)
            #expect(await eventually { counter.count == 1 })
            // The connection still answers in order after it.
            #expect(
                try await proxy(client, server).call(
                    MemberName("Add"), [.int32(1), .int32(1)], returning: Int32.self)
                    == 2)
        }
    }

    @Test("arguments of the wrong signature are refused with InvalidArgs before the handler runs")
    func wrongArguments() async throws {
        try await withBus { _, server, client in
            let counter = Counter()
            try await server.export(counter.declaration(), at: Self.path)
            await expectDBusError(.invalidArgs) {
                try await proxy(client, server).call(MemberName("Add"), [.string("one"), .int32(2)])
            }
            #expect(counter.count == 0)
        }
    }
}
