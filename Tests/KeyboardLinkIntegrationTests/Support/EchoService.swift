import KeyboardLink

/// A small test object exported by our own object server: `com.example.Echo` at `/com/example/echo`.
enum EchoService {
    static let interface = InterfaceName("com.example.Echo")
    static let path = ObjectPath("/com/example/echo")

    /// Exports the object on `server` and returns `client`'s proxy for it.
    static func export(on server: BusConnection, proxyFrom client: BusConnection) async throws -> DBusProxy {
        try await server.export(declaration(), at: path)
        return proxy(from: client, to: server.uniqueName)
    }

    /// `client`'s proxy for the object exported by `peer`.
    static func proxy(from client: BusConnection, to peer: BusName) -> DBusProxy {
        DBusProxy(connection: client, destination: peer, path: path, interface: interface)
    }

    /// Declares the interface; `counter` backs the `Count` property.
    static func declaration() -> DBusInterface {
        DBusInterface(
            interface,
            methods: [
                DBusMethod(
                    "Echo", inputs: [DBusArgument("value", .variant)], outputs: [DBusArgument("value", .variant)]
                ) { call in call.arguments },
                // Declared with Swift types (answered straight from the libdbus message), so the clients other
                // projects wrote reach that path too.
                DBusMethod("Concat", arguments: ["a", "b"], result: "joined") { (a: String, b: String) in a + b },
                DBusMethod("Fail", inputs: [DBusArgument("message", .string)]) { call in
                    let message = try call.decode(String.self)
                    throw DBusError(ErrorName("com.example.Error.Refused"), message)
                },
                DBusMethod(
                    "Slow", inputs: [DBusArgument("milliseconds", .uint32)], outputs: [DBusArgument("done", .boolean)]
                ) {
                    call in
                    let milliseconds = try call.decode(UInt32.self)
                    try await Task.sleep(for: .milliseconds(Int(milliseconds)))
                    return [.boolean(true)]
                },
                DBusMethod("Add", arguments: ["a", "b"], result: "sum") { (a: Int32, b: Int32) in a &+ b },
            ],
            properties: [
                DBusProperty("Name", type: .string, initial: .string("echo")),
                DBusProperty(
                    "Volume", type: .uint32, access: .readWrite, initial: .uint32(5),
                    setter: { value, _ in
                        guard case .uint32(let level) = value, level <= 100 else {
                            throw DBusError.invalidArgs("Volume is 0..100")
                        }
                        return value
                    }),
                DBusProperty("Serial", type: .string, changes: .const, initial: .string("S-1")),
                DBusProperty("Secret", type: .string, changes: .invalidates, initial: .string("a")),
            ],
            signals: [DBusSignal("Pinged", arguments: [DBusArgument("count", .uint32)])]
        )
    }
}
