import KeyboardLink
import Testing

/// Typed decoding of received messages, through a real dbus-daemon: the wire path must give what the dynamic
/// `DBusValue` path gives, for replies and for calls our server receives.
@Suite("Typed decoding of received messages through a private bus")
struct WireDecodingBusTests {
    static let interface = InterfaceName("com.example.Device")

    static func declaration(_ index: Int) -> DBusInterface {
        DBusInterface(
            interface,
            properties: [
                DBusProperty("Address", type: .string, initial: .string("AA:BB:CC:DD:EE:0\(index)")),
                DBusProperty("Class", type: .uint32, initial: .uint32(0x2540 + UInt32(index))),
                DBusProperty("RSSI", type: .int16, initial: .int16(Int16(-40 - index))),
                DBusProperty(
                    "UUIDs", type: .array(.string),
                    initial: .array(.string, (0...index).map { .string("0000112\($0)-0000-1000-8000-00805f9b34fb") })),
            ])
    }

    @Test("GetManagedObjects decodes typed from the wire as through DBusValue", arguments: [0, 1, 5])
    func managedObjects(_ count: Int) async throws {
        try await withBus { _, server, client in
            let root = ObjectPath("/com/example")
            await server.addObjectManager(at: root)
            for index in 0..<count {
                try await server.export(Self.declaration(index), at: try ObjectPath("/com/example/dev\(index)"))
            }
            let reply = try await client.call(
                destination: server.uniqueName, path: root, interface: .objectManager,
                member: MemberName("GetManagedObjects"))
            let typed = try reply.decode([ObjectPath: [String: [String: DBusValue]]].self)
            let viaValues = try [ObjectPath: [String: [String: DBusValue]]](dbusValue: reply.body[0])
            #expect(typed == viaValues)
            #expect(typed.count == count)
            if count > 1 {
                let device = typed[ObjectPath("/com/example/dev1")]?[Self.interface.rawValue]
                #expect(device?["Address"] == .string("AA:BB:CC:DD:EE:01"))
                #expect(device?["RSSI"] == .int16(-41))
                #expect(device?["UUIDs"]?.arrayValue?.count == 2)
            }
            #expect(throws: DBusError.self) { try reply.decode([String: DBusValue].self) }
        }
    }

    @Test(
        "a handler decodes its arguments typed and replies", arguments: [(Int32(0), Int32(0)), (.min, -1), (.max, 7)])
    func handlerArguments(_ pair: (Int32, Int32)) async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: EchoService.path,
                interface: EchoService.interface)
            let sum = try await proxy.call(
                MemberName("Add"), [.int32(pair.0), .int32(pair.1)], returning: Int32.self)
            #expect(sum == pair.0 &+ pair.1)
        }
    }
}
