import KeyboardLink
import Testing

@Suite("The ALLOW_INTERACTIVE_AUTHORIZATION header flag travels from caller to handler")
struct InteractiveAuthorizationFlagTests {
    static let interface: InterfaceName = "org.example.Flags"
    static let path: ObjectPath = "/org/example/flags"

    @Test("a handler sees the flag exactly when the caller set it", arguments: [false, true])
    func flag(set: Bool) async throws {
        try await withBus { _, server, client in
            try await server.export(
                DBusInterface(
                    Self.interface,
                    methods: [
                        DBusMethod("Typed", arguments: ["note"], result: "interactive") {
                            (call: MethodCallContext, _: String) async throws -> Bool in
                            call.allowsInteractiveAuthorization
                        }
                    ]),
                at: Self.path)
            var call = Message.methodCall(
                destination: server.uniqueName, path: Self.path, interface: Self.interface,
                member: "Typed", body: [.string("note")])
            call.allowsInteractiveAuthorization = set
            let reply = try await client.call(call)
            #expect(try reply.decode(Bool.self) == set)
        }
    }
}
