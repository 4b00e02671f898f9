import KeyboardLink
import KeyboardLinkTestSupport
import Testing

extension CrossImplementation {
    /// Our client drives a python-dbusmock object through its `org.freedesktop.DBus.Mock` interface, then uses
    /// what it added.
    @Suite("Our client uses a python-dbusmock object")
    struct DBusMockTests {
        static let busName = BusName("com.example.Mock")
        static let path = ObjectPath("/com/example/Mock")
        static let interface = InterfaceName("com.example.Mock")
        static let mockInterface = InterfaceName("org.freedesktop.DBus.Mock")

        @Test("AddMethod and AddProperty, then we call the method, read the property and receive a signal")
        func dbusmock() async throws {
            try await withBus { bus, _, client in
                // dbusmock has no address option: it takes the session bus, so its environment names our bus.
                let mock = try ToolProcess(
                    CrossImplementation.python,
                    ["-m", "dbusmock", Self.busName.rawValue, Self.path.rawValue, Self.interface.rawValue],
                    environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
                defer { mock.kill() }
                let appeared = try await eventually {
                    try await client.nameOwner(of: Self.busName) != nil
                }
                #expect(appeared, "dbusmock did not take its name: \(mock.standardError)")

                let control = DBusProxy(
                    connection: client, destination: Self.busName, path: Self.path, interface: Self.mockInterface)
                try await control.call(
                    MemberName("AddMethod"),
                    [
                        .string(Self.interface.rawValue), .string("Multiply"), .string("ii"), .string("i"),
                        .string("ret = args[0] * args[1]"),
                    ])
                try await control.call(
                    MemberName("AddMethod"),
                    [
                        .string(Self.interface.rawValue), .string("Describe"), .string("a{sv}"), .string("s"),
                        .string("ret = ','.join('%s=%s' % (k, type(v).__name__) for k, v in sorted(args[0].items()))"),
                    ])
                try await control.call(
                    MemberName("AddProperty"),
                    [.string(Self.interface.rawValue), .string("Model"), .variant(.string("Aula F87"))])
                try await control.call(
                    MemberName("AddProperty"),
                    [.string(Self.interface.rawValue), .string("Keys"), .variant(.uint16(87))])

                let target = DBusProxy(
                    connection: client, destination: Self.busName, path: Self.path, interface: Self.interface)
                #expect(
                    try await target.call(MemberName("Multiply"), [.int32(6), .int32(-7)], returning: Int32.self)
                        == -42)
                let described = try await target.call(
                    MemberName("Describe"),
                    [
                        (["rssi": .int16(-60), "name": .string("kb"), "paired": .boolean(true)] as [String: DBusValue])
                            .dbusValue
                    ],
                    returning: String.self)
                #expect(described == "name=String,paired=Boolean,rssi=Int16")
                #expect(try await target.property(MemberName("Model")) == .string("Aula F87"))
                #expect(try await target.property(MemberName("Keys"), as: UInt16.self) == 87)

                // dbusmock logs every call it answered.
                let calls = try await control.call(
                    MemberName("GetMethodCalls"), [.string("Multiply")],
                    returning: [DBusStruct<UInt64, [DBusValue]>].self)
                #expect(calls.map(\.fields.1) == [[.int32(6), .int32(-7)]])

                // Its Properties.Set emits PropertiesChanged, which our cache follows.
                let cache = try await PropertyCache.make(for: target)
                #expect(cache.values == ["Model": .string("Aula F87"), "Keys": .uint16(87)])
                try await target.setProperty(MemberName("Model"), to: .string("Aula F99"))
                #expect(await eventually { cache["Model"] == .string("Aula F99") })
                cache.stop()

                let pressed = try await target.signals(MemberName("Pressed"))
                try await control.call(
                    MemberName("EmitSignal"),
                    [
                        .string(Self.interface.rawValue), .string("Pressed"), .string("su"),
                        .array(.variant, [.variant(.string("Esc")), .variant(.uint32(3))]),
                    ])
                let signal = try #require(await first(of: pressed))
                #expect(signal.body == [.string("Esc"), .uint32(3)])
                #expect(signal.path == Self.path)
            }
        }
    }
}
