import KeyboardLinkTestSupport
import Synchronization
import Testing

@testable import KeyboardLinkDBus

/// Methods declared with Swift argument and result types, which the server answers straight from the libdbus message,
/// whether or not the call names the interface.
@Suite(
    "Typed methods: answers from the libdbus message, calls without an interface, errors, routes after export changes")
struct TypedMethodTests {
    static let interface = InterfaceName("com.example.Typed")
    static let path = ObjectPath("/com/example/typed")

    /// Counts the calls its handlers ran.
    final class Calculator: Sendable {
        let calls = Mutex(0)
        var count: Int { calls.withLock { $0 } }
        /// Added to every sum, so that two exports of the same declaration answer differently.
        let offset: Int32

        init(offset: Int32 = 0) { self.offset = offset }

        private func counted() { calls.withLock { $0 += 1 } }

        func declaration() -> DBusInterface {
            DBusInterface(
                TypedMethodTests.interface,
                methods: [
                    DBusMethod("Add", arguments: ["a", "b"], result: "sum") { [self] (a: Int32, b: Int32) in
                        counted()
                        return a &+ b &+ offset
                    },
                    DBusMethod("Refuse", arguments: ["why"]) { [self] (why: String) throws in
                        counted()
                        throw DBusError(ErrorName("com.example.Error.Refused"), why)
                    },
                    DBusMethod("Crash", arguments: []) { [self] () throws in
                        counted()
                        throw PlainError()
                    },
                    DBusMethod("Bump", arguments: []) { [self] () in counted() },
                    DBusMethod("Echo", arguments: ["text"], result: "text") { [self] (text: String) in
                        counted()
                        return text
                    },
                    DBusMethod("Greet", arguments: ["name", "times"], result: "greeting") {
                        [self] (name: String, times: UInt32) async throws in
                        counted()
                        // Suspends, so the reply is sent after the dispatch of the call has ended.
                        try await Task.sleep(for: .milliseconds(5))
                        return Array(repeating: "hello \(name)", count: Int(times)).joined(separator: ", ")
                    },
                    DBusMethod("Forget", arguments: ["key"]) { [self] (key: String) async throws in
                        counted()
                        await Task.yield()
                        if key.isEmpty { throw DBusError.invalidArgs("an empty key") }
                    },
                ])
        }
    }

    struct PlainError: Error, CustomStringConvertible {
        var description: String { "a plain Swift error" }
    }

    func proxy(_ client: BusConnection, _ server: BusConnection, path: ObjectPath = Self.path) -> DBusProxy {
        DBusProxy(connection: client, destination: server.uniqueName, path: path, interface: Self.interface)
    }

    func answeredByType(_ server: BusConnection) async -> Int {
        await server.onQueue { server.typedCallsAnswered }
    }

    @Test("a typed method answers concurrent calls from the libdbus message, each with its own result")
    func answers() async throws {
        try await withBus { _, server, client in
            let calculator = Calculator()
            try await server.export(calculator.declaration(), at: Self.path)
            let sums = try await concurrentAdds(proxy(client, server), count: 300, adding: 7)
            #expect(sums.count == 300)
            #expect(sums.allSatisfy { $0.value == $0.key + 7 })
            #expect(calculator.count == 300)
            #expect(await answeredByType(server) == 300)
        }
    }

    @Test("a call naming no interface finds the method and is answered the same way, from the libdbus message")
    func withoutInterface() async throws {
        try await withBus { _, server, client in
            let calculator = Calculator()
            try await server.export(calculator.declaration(), at: Self.path)
            let reply = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: nil, member: MemberName("Add"),
                [.int32(40), .int32(2)])
            #expect(reply.body == [.int32(42)])
            let echoed = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: nil, member: MemberName("Echo"),
                [.string("général")])
            #expect(echoed.body == [.string("général")])
            #expect(calculator.count == 2)
            #expect(await answeredByType(server) == 2)
        }
    }

    @Test("arguments of another signature are refused with InvalidArgs before the handler runs")
    func wrongArguments() async throws {
        try await withBus { _, server, client in
            let calculator = Calculator()
            try await server.export(calculator.declaration(), at: Self.path)
            let error = await expectDBusError(.invalidArgs) {
                try await proxy(client, server).call(MemberName("Add"), [.string("one"), .int32(2)])
            }
            #expect(error?.message.contains("'ii'") == true, "\(error?.message ?? "")")
            await expectDBusError(.invalidArgs) {
                try await proxy(client, server).call(MemberName("Add"), [.int32(1)])
            }
            #expect(calculator.count == 0)
        }
    }

    @Test("a thrown DBusError reaches the caller with its name and message; any other error as Failed")
    func thrownErrors() async throws {
        try await withBus { _, server, client in
            let calculator = Calculator()
            try await server.export(calculator.declaration(), at: Self.path)
            let refused = await expectDBusError(ErrorName("com.example.Error.Refused")) {
                try await proxy(client, server).call(MemberName("Refuse"), [.string("locked")])
            }
            #expect(refused?.message == "locked")
            let crashed = await expectDBusError(.failed) {
                try await proxy(client, server).call(MemberName("Crash"))
            }
            #expect(crashed?.message == "a plain Swift error")
            let forgot = await expectDBusError(.invalidArgs) {
                try await proxy(client, server).call(MemberName("Forget"), [.string("")])
            }
            #expect(forgot?.message == "an empty key")
            #expect(await answeredByType(server) == 3)
        }
    }

    @Test("a result libdbus would refuse (a string holding NUL) is answered with InvalidArgs, and nothing crashes")
    func unsendableResult() async throws {
        try await withBus { _, server, client in
            try await server.export(Calculator().declaration(), at: Self.path)
            // The caller cannot send a NUL either, so the handler makes one from what it was given.
            let declaration = DBusInterface(
                InterfaceName("com.example.Nul"),
                methods: [
                    DBusMethod("Split", arguments: ["text"], result: "text") { (text: String) in text + "\u{0}" }
                ])
            try await server.export(declaration, at: Self.path)
            let nul = DBusProxy(
                connection: client, destination: server.uniqueName, path: Self.path,
                interface: InterfaceName("com.example.Nul"))
            await expectDBusError(.invalidArgs) {
                try await nul.call(MemberName("Split"), [.string("a")])
            }
            #expect(
                try await proxy(client, server).call(
                    MemberName("Echo"), [.string("still here")], returning: String.self)
                    == "still here")
        }
    }

    @Test("an asynchronous typed method suspends and replies later; one with no result replies empty")
    func asynchronous() async throws {
        try await withBus { _, server, client in
            let calculator = Calculator()
            try await server.export(calculator.declaration(), at: Self.path)
            let greeting = try await proxy(client, server).call(
                MemberName("Greet"), [.string("Ada"), .uint32(2)], returning: String.self)
            #expect(greeting == "hello Ada, hello Ada")
            let reply = try await proxy(client, server).call(MemberName("Forget"), [.string("k")])
            #expect(reply.body.isEmpty)
            #expect(await answeredByType(server) == 2)
        }
    }

    @Test("a call flagged no-reply runs its handler and gets no reply")
    func noReplyCall() async throws {
        try await withBus { _, server, client in
            let calculator = Calculator()
            try await server.export(calculator.declaration(), at: Self.path)
            try await sendNoReplyCall("Bump", path: Self.path, interface: Self.interface, on: server, from: client)
            #expect(await eventually { calculator.count == 1 })
            #expect(
                try await proxy(client, server).call(
                    MemberName("Add"), [.int32(1), .int32(1)], returning: Int32.self)
                    == 2)
        }
    }

    @Test("routes follow exports: many objects each answer for themselves; unexport and export again take effect")
    func routesFollowExports() async throws {
        try await withBus { _, server, client in
            // Enough objects that routes share hash slots.
            let paths = try (0..<100).map { try ObjectPath("/com/example/typed/k\($0)") }
            for (index, path) in paths.enumerated() {
                try await server.export(Calculator(offset: Int32(index) * 1000).declaration(), at: path)
            }
            for (index, path) in paths.enumerated() {
                let sum = try await proxy(client, server, path: path).call(
                    MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self)
                #expect(sum == Int32(index) * 1000 + 3)
            }
            await server.unexport(Self.interface, at: paths[7])
            await expectDBusError(.unknownObject) {
                try await proxy(client, server, path: paths[7]).call(MemberName("Add"), [.int32(1), .int32(2)])
            }
            try await server.export(Calculator(offset: -3).declaration(), at: paths[7])
            #expect(
                try await proxy(client, server, path: paths[7]).call(
                    MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self) == 0)
            #expect(await answeredByType(server) == 101)
        }
    }

    @Test("a handler given the call's context sees the object path and the caller, with or without the interface")
    func context() async throws {
        try await withBus { _, server, client in
            let declaration = DBusInterface(
                Self.interface,
                methods: [
                    DBusMethod("WhoAmI", arguments: ["greeting"], result: "answer") {
                        (call: MethodCallContext, greeting: String) in
                        "\(greeting) \(call.sender?.rawValue ?? "nobody") at \(call.path.rawValue)"
                    }
                ])
            let paths = [ObjectPath("/com/example/typed/a"), ObjectPath("/com/example/typed/b")]
            for path in paths { try await server.export(declaration, at: path) }
            for path in paths {
                let expected = "hi \(client.uniqueName.rawValue) at \(path.rawValue)"
                let typed = try await proxy(client, server, path: path).call(
                    MemberName("WhoAmI"), [.string("hi")], returning: String.self)
                #expect(typed == expected)
                let unnamed = try await client.call(
                    destination: server.uniqueName, path: path, interface: nil, member: MemberName("WhoAmI"),
                    [.string("hi")])
                #expect(unnamed.body == [.string(expected)])
            }
            #expect(await answeredByType(server) == 4)
        }
    }

    @Test(
        "containers, variants and BlueZ's deepest nesting reach a typed method and come back, with or without the interface"
    )
    func containers() async throws {
        typealias Managed = [ObjectPath: [String: [String: DBusValue]]]
        try await withBus { _, server, client in
            let declaration = DBusInterface(
                Self.interface,
                methods: [
                    DBusMethod("Reverse", arguments: ["bytes"], result: "bytes") { (bytes: [UInt8]) in
                        Array(bytes.reversed())
                    },
                    DBusMethod("Names", arguments: ["objects", "extra"], result: "names") {
                        (objects: Managed, extra: DBusValue) in
                        objects.flatMap { path, interfaces in
                            interfaces.flatMap { interface, properties in
                                properties.keys.map { "\(path.rawValue) \(interface) \($0)" }
                            }
                        }.sorted() + ["\(extra)"]
                    },
                ])
            try await server.export(declaration, at: Self.path)
            let device = ObjectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF")
            let managed = DBusValue.dictionary(
                key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
                [
                    DBusDictionaryEntry(
                        key: .objectPath(device),
                        value: .dictionary(
                            key: .string, value: .dictionary(key: .string, value: .variant),
                            [
                                DBusDictionaryEntry(
                                    key: .string("org.bluez.Device1"),
                                    value: .dictionary(
                                        key: .string, value: .variant,
                                        [
                                            DBusDictionaryEntry(key: .string("Name"), value: .variant(.string("F87"))),
                                            DBusDictionaryEntry(
                                                key: .string("Paired"), value: .variant(.boolean(true))),
                                        ]))
                            ]))
                ])
            for interface in [Self.interface, nil] {
                // The typed path reads an `ay` in one copy: check a few bytes, none, and more than a small buffer.
                for bytes in [[1, 2, 3, 250], [], (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }] as [[UInt8]] {
                    let reversed = try await client.call(
                        destination: server.uniqueName, path: Self.path, interface: interface,
                        member: MemberName("Reverse"), [.array(.byte, bytes.map { .byte($0) })])
                    #expect(reversed.body == [.array(.byte, bytes.reversed().map { .byte($0) })])
                }
                let names = try await client.call(
                    destination: server.uniqueName, path: Self.path, interface: interface,
                    member: MemberName("Names"), [managed, .variant(.uint16(7))])
                let prefix = device.rawValue + " org.bluez.Device1 "
                #expect(
                    try names.decode([String].self) == [prefix + "Name", prefix + "Paired", "\(DBusValue.uint16(7))"])
            }
            #expect(await answeredByType(server) == 8)
        }
    }

    @Test("introspection shows a typed method's argument names and the types taken from Swift")
    func introspection() async throws {
        try await withBus { _, server, _ in
            try await server.export(Calculator().declaration(), at: Self.path)
            let xml = await server.introspectionXML(for: Self.path)
            #expect(xml.contains(#"<method name="Greet">"#))
            #expect(xml.contains(#"<arg name="name" type="s" direction="in"/>"#), "\(xml)")
            #expect(xml.contains(#"<arg name="times" type="u" direction="in"/>"#))
            #expect(xml.contains(#"<arg name="greeting" type="s" direction="out"/>"#))
        }
    }
}
