import KeyboardLink
import Testing

/// Every D-Bus type, sent through a real dbus-daemon to our own server and back.
@Suite("Marshalling round trips through a private bus")
struct RoundTripTests {
    static let samples: [DBusValue] = {
        let path = ObjectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF")
        let properties = DBusValue.dictionary(
            key: .string, value: .variant,
            [
                DBusDictionaryEntry(key: .string("Address"), value: .variant(.string("AA:BB:CC:DD:EE:FF"))),
                DBusDictionaryEntry(key: .string("Class"), value: .variant(.uint32(0x2540))),
                DBusDictionaryEntry(
                    key: .string("UUIDs"),
                    value: .variant(.array(.string, [.string("00001124-0000-1000-8000-00805f9b34fb")]))),
                DBusDictionaryEntry(key: .string("RSSI"), value: .variant(.int16(-60))),
            ])
        let interfaces = DBusValue.dictionary(
            key: .string, value: .dictionary(key: .string, value: .variant),
            [DBusDictionaryEntry(key: .string("org.bluez.Device1"), value: properties)])
        let managed = DBusValue.dictionary(
            key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
            [DBusDictionaryEntry(key: .objectPath(path), value: interfaces)])
        return [
            .byte(0), .byte(255), .boolean(true), .boolean(false),
            .int16(.min), .int16(.max), .uint16(.max), .int32(.min), .int32(-1), .uint32(.max),
            .int64(.min), .int64(.max), .uint64(.max), .double(-0.5), .double(1e308), .double(.infinity),
            .string(""), .string("héllo ✓ 🎹"), .string(String(repeating: "x", count: 70_000)),
            .objectPath(.root), .objectPath(path), .signature(try! Signature("a{oa{sa{sv}}}")),
            .signature(.empty),
            .variant(.variant(.uint32(7))),
            .array(.string, []), .array(.byte, (0...255).map { .byte(UInt8($0)) }),
            .array(.array(.int32), [.array(.int32, [.int32(1), .int32(2)]), .array(.int32, [])]),
            .dictionary(key: .string, value: .variant, []),
            .dictionary(key: .uint32, value: .string, [DBusDictionaryEntry(key: .uint32(1), value: .string("one"))]),
            .structure([.string("bluetooth"), .string("AA:BB:CC:DD:EE:FF"), .string("Aula F87")]),
            .structure([
                .objectPath(path), .structure([.byte(1), .double(2.5)]), .array(.variant, [.variant(.boolean(true))]),
            ]),
            managed,
        ]
    }()

    @Test("a value survives Echo(v) unchanged", arguments: RoundTripTests.samples)
    func echoRoundTrip(_ value: DBusValue) async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: EchoService.path,
                interface: EchoService.interface)
            let echoed = try await proxy.call(MemberName("Echo"), [.variant(value)], returning: DBusValue.self)
            #expect(echoed == value)
            #expect(echoed.type == value.type)
        }
    }

    @Test("typed Swift values derive their signature and decode back")
    func typedRoundTrip() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: EchoService.path,
                interface: EchoService.interface)
            let keyboards: [DBusStruct<String, String, String>] = [
                DBusStruct("bluetooth", "AA:BB:CC:DD:EE:FF", "Aula F87"),
                DBusStruct("evdev", "/dev/input/event3", "USB"),
            ]
            #expect([DBusStruct<String, String, String>].dbusType.signature == "a(sss)")
            let back = try await proxy.call(
                MemberName("Echo"), [.variant(keyboards.dbusValue)], returning: DBusValue.self)
            let decoded = try [DBusStruct<String, String, String>](dbusValue: back)
            #expect(decoded.count == 2)
            #expect(decoded[0].fields.2 == "Aula F87")
            #expect(decoded[1].fields.1 == "/dev/input/event3")

            let battery: [String: UInt8] = ["left": 80, "right": 55]
            #expect([String: UInt8].dbusType.signature == "a{sy}")
            let echoedBattery = try [String: UInt8](
                dbusValue: try await proxy.call(
                    MemberName("Echo"), [.variant(battery.dbusValue)], returning: DBusValue.self))
            #expect(echoedBattery == battery)

            let sum = try await proxy.call(MemberName("Add"), [.int32(40), .int32(2)], returning: Int32.self)
            #expect(sum == 42)
            let joined = try await proxy.call(
                MemberName("Concat"), [.string("kb"), .string("link")], returning: String.self)
            #expect(joined == "kblink")
        }
    }

    @Test("decoding a reply as the wrong types throws instead of trapping")
    func decodingMismatchThrows() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let reply = try await client.call(
                destination: server.uniqueName, path: EchoService.path, interface: EchoService.interface,
                member: MemberName("Add"), [.int32(1), .int32(2)])
            #expect(throws: DBusError.self) { try reply.decode(String.self) }
            #expect(throws: DBusError.self) { try reply.decode(Int32.self, Int32.self) }
            #expect(throws: DBusError.self) { try reply.decode(UInt32.self) }
            #expect(throws: DBusError.self) { try [String: DBusValue](dbusValue: .array(.string, [])) }
            #expect(throws: DBusError.self) { try DBusStruct<String, UInt32>(dbusValue: .structure([.string("a")])) }
        }
    }
}
