import Glibc
import KeyboardLink
import Testing

/// Messages that used to crash or hang a process (D-Bus binding review): a peer's file descriptor where the object
/// server expected decoded values, nesting libdbus aborts on, and a body signature longer than the header can say.
/// Each must end in a ``DBusError`` while the connections keep working.
@Suite("Hostile messages get errors, never crashes or hangs")
struct HostileMessageTests {
    @Test(
        "Properties calls with a file descriptor in a variant get errors, and the server keeps serving",
        arguments: ["Set", "Get", "GetAll"])
    func propertiesWithFileDescriptor(_ member: String) async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let descriptor = open("/dev/null", O_RDONLY)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let body: [DBusValue] =
                switch member {
                case "Set": [.string(EchoService.interface.rawValue), .string("Volume"), .variant(.unixFD(descriptor))]
                case "Get": [.string(EchoService.interface.rawValue), .unixFD(descriptor)]
                default: [.unixFD(descriptor)]
                }
            let error = await #expect(throws: DBusError.self) {
                try await client.call(
                    destination: server.uniqueName, path: EchoService.path, interface: .properties,
                    member: try MemberName(member), body)
            }
            #expect(error?.name == .invalidArgs)
            let proxy = EchoService.proxy(from: client, to: server.uniqueName)
            #expect(try await proxy.call(MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self) == 3)
        }
    }

    /// `depth` containers of one kind around `inner` (a byte by default).
    static func nested(_ depth: Int, _ wrap: (DBusValue) -> DBusValue, around inner: DBusValue = .byte(1)) -> DBusValue
    {
        (0..<depth).reduce(inner) { inner, _ in wrap(inner) }
    }

    static func array(_ inner: DBusValue) -> DBusValue { .array(inner.type, [inner]) }
    static func structure(_ inner: DBusValue) -> DBusValue { .structure([inner]) }
    static func dictionary(_ inner: DBusValue) -> DBusValue {
        .dictionary(key: .byte, value: inner.type, [DBusDictionaryEntry(key: .byte(0), value: inner)])
    }

    /// Values just past one of the specification's limits, with the limit the error must name.
    static let tooDeep: [(String, DBusValue, String)] = [
        ("33 arrays", nested(33, array), "32 nested arrays"),
        ("33 structs", nested(33, structure), "32 nested structs"),
        (
            "17 dict entries in 16 structs (dict entries count as structs)",
            nested(16, structure, around: nested(17, dictionary)), "32 nested structs"
        ),
        ("an empty array whose element type nests 33 arrays", .array(nested(32, array).type, []), "32 nested arrays"),
        (
            "65 containers across variants",
            nested(13, { .variant(array(array(array(array($0))))) }), "64 nested containers"
        ),
    ]

    @Test("nesting past the specification's limits is refused before sending", arguments: 0..<tooDeep.count)
    func tooDeepIsRefused(_ index: Int) async throws {
        let (_, value, limit) = Self.tooDeep[index]
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            let error = await #expect(throws: DBusError.self) {
                try await proxy.call(MemberName("Echo"), [.variant(value)])
            }
            #expect(error?.name == .invalidArgs)
            #expect(error?.message.contains(limit) == true, "\(error?.message ?? "")")
            #expect(client.isConnected)
            #expect(try await proxy.call(MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self) == 3)
        }
    }

    @Test(
        "nesting at the specification's limits travels",
        arguments: [
            nested(32, array), nested(32, structure), nested(16, { array(structure($0)) }),
            // Each variant's signature counts its own arrays and structs: 3 x 20 arrays in all.
            nested(3, { .variant(nested(20, array, around: $0)) }),
        ])
    func atTheLimitsTravels(_ value: DBusValue) async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            let echoed: DBusValue = try await proxy.call(
                MemberName("Echo"), [.variant(value)], returning: DBusValue.self)
            #expect(echoed == value)
        }
    }

    /// Results a typed method may produce that D-Bus cannot carry: 33 nested arrays, a 302-byte signature.
    static let unsendableResults: [DBusValue] = [
        nested(33, array), .structure(Array(repeating: .byte(1), count: 300)),
    ]

    @Test("a typed method's unsendable result is answered with an error", arguments: 0..<unsendableResults.count)
    func unsendableTypedResult(_ index: Int) async throws {
        let interface = InterfaceName("com.example.Unsendable")
        let path = ObjectPath("/com/example/unsendable")
        try await withBus { _, server, client in
            try await server.export(
                DBusInterface(
                    interface,
                    methods: [
                        DBusMethod("Make", arguments: [], result: "value") { () -> DBusValue in
                            Self.unsendableResults[index]
                        }
                    ]), at: path)
            let error = await #expect(throws: DBusError.self) {
                try await client.call(
                    destination: server.uniqueName, path: path, interface: interface, member: MemberName("Make"))
            }
            #expect(error?.name == .invalidArgs)
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            #expect(try await proxy.call(MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self) == 3)
        }
    }

    @Test("a deeply nested value's description stays short")
    func deepDescription() {
        // Each level used to quote and escape the one inside it again, doubling the text.
        #expect(Self.nested(20, Self.array).description.count < 500)
        #expect(Self.nested(20, Self.array).description.hasPrefix("aaaaaaaaaaaaaaaaaaaay[aaaaaaaaaaaaaaaaaaay["))
    }

    // The limit catches a hang; the wait for a private bus (`DaemonSlots`) counts toward it, over a minute under load.
    @Test("a body whose signature is longer than 255 bytes is refused before libdbus sees it", .timeLimit(.minutes(5)))
    func longBodySignature() async throws {
        try await withBus { _, server, client in
            let proxy = try await EchoService.export(on: server, proxyFrom: client)
            let error = await #expect(throws: DBusError.self) {
                try await client.call(
                    destination: server.uniqueName, path: EchoService.path, interface: EchoService.interface,
                    member: MemberName("Echo"), Array(repeating: DBusValue.byte(1), count: 300))
            }
            #expect(error?.name == .invalidArgs)
            #expect(error?.message.contains("255") == true)
            // 255 bytes exactly is allowed (the server answers that the arguments are wrong).
            let atLimit = await #expect(throws: DBusError.self) {
                try await client.call(
                    destination: server.uniqueName, path: EchoService.path, interface: EchoService.interface,
                    member: MemberName("Echo"), Array(repeating: DBusValue.byte(1), count: 255))
            }
            #expect(atLimit?.message.contains("255") == false)
            #expect(try await proxy.call(MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self) == 3)
            // Signals and messages built for the wire are refused the same way.
            let signal = Message.signal(
                path: EchoService.path, interface: EchoService.interface, member: MemberName("Pinged"),
                body: Array(repeating: DBusValue.string("x"), count: 256))
            await #expect(throws: DBusError.self) { try await client.send(signal) }
            #expect(throws: DBusError.self) { try signal.marshalled() }
        }
    }
}
