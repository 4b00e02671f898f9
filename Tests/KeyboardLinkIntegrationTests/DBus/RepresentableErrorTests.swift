import KeyboardLink
import Testing

/// A handler's own error type answers with its D-Bus name through ``DBusErrorRepresentable``, from a method, a
/// synchronous typed method and a property setter alike; an error that is not representable answers `Failed`.
@Suite struct RepresentableErrorTests {
    /// An API's own error, as a service outside kblink would write it.
    struct ThermostatError: Error, DBusErrorRepresentable {
        var reason: String
        var dbusError: DBusError { DBusError(ErrorName("com.example.Thermostat.Error.OutOfRange"), reason) }
    }

    struct Unrepresentable: Error, CustomStringConvertible {
        var description: String { "nothing to say on the bus" }
    }

    static let interface = InterfaceName("com.example.Thermostat")
    static let path = ObjectPath("/com/example/thermostat")

    static func declaration() -> DBusInterface {
        DBusInterface(
            interface,
            methods: [
                DBusMethod("SetTarget", inputs: [DBusArgument("celsius", .double)]) { call in
                    let celsius = try call.decode(Double.self)
                    throw ThermostatError(reason: "the target must be between 5 and 30 °C, not \(celsius)")
                },
                DBusMethod("Boost", arguments: ["minutes"], result: "until") { (minutes: UInt32) throws -> UInt32 in
                    throw ThermostatError(reason: "boost for at most 60 minutes, not \(minutes)")
                },
                DBusMethod("Break", inputs: []) { _ in throw Unrepresentable() },
            ],
            properties: [
                DBusProperty(
                    "Target", type: .double, access: .readWrite, initial: .double(20),
                    setter: { value, _ in
                        throw ThermostatError(reason: "Target is set with SetTarget, not \(value)")
                    })
            ])
    }

    @Test func handlersAnswerWithTheirErrorsName() async throws {
        try await withBus { _, server, client in
            try await server.export(Self.declaration(), at: Self.path)
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: Self.path, interface: Self.interface)
            let outOfRange = ErrorName("com.example.Thermostat.Error.OutOfRange")
            let method = await expectDBusError(outOfRange) {
                try await proxy.call(MemberName("SetTarget"), [.double(80)])
            }
            #expect(method?.message == "the target must be between 5 and 30 °C, not 80.0")
            let typed = await expectDBusError(outOfRange) { try await proxy.call(MemberName("Boost"), [.uint32(90)]) }
            #expect(typed?.message == "boost for at most 60 minutes, not 90")
            let setter = await expectDBusError(outOfRange) {
                try await proxy.setProperty(MemberName("Target"), to: .double(21))
            }
            #expect(setter?.message.hasPrefix("Target is set with SetTarget") == true)
            let other = await expectDBusError(.failed) { try await proxy.call(MemberName("Break")) }
            #expect(other?.message == "nothing to say on the bus")
        }
    }
}
