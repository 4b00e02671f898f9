import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

extension CrossImplementation {
    /// Our client (calls, ``DBusProxy``, ``PropertyCache``, signal streams) against a python3-dbus service.
    @Suite("Our client uses a python3-dbus service")
    struct PythonServiceTests {
        static let busName = BusName("com.example.PyService")
        static let path = ObjectPath("/com/example/Py")
        static let interface = InterfaceName("com.example.Py")

        /// Starts the service, waits for its name, runs `body` with a proxy, then asks the service to quit.
        private func withService(_ body: (DBusProxy, BusConnection) async throws -> Void) async throws {
            try await withBus { bus, _, client in
                let python = try PythonScript.service.start([bus.address])
                defer { python.kill() }
                let ready = try await python.nextJSON()
                #expect(ready["ready"] == .string(Self.busName.rawValue), "\(python.standardError)")
                let owner = try await client.nameOwner(of: Self.busName)
                #expect(owner?.rawValue == ready["unique"].string)
                let proxy = DBusProxy(
                    connection: client, destination: Self.busName, path: Self.path, interface: Self.interface)
                try await body(proxy, client)
                try await proxy.call(MemberName("Quit"))
                #expect(try await python.nextJSON() == ["step": "done"])
                #expect(try await python.waitForExit() == 0, "\(python.standardError)")
            }
        }

        static let variants: [String: DBusValue] = [
            "count": .uint32(7),
            "name": .string("Aula ✓"),
            "flag": .boolean(true),
            "level": .byte(200),
            "temperature": .double(-1.5),
            "offset": .int16(-3),
            "tags": .array(.string, [.string("rgb"), .string("wireless")]),
            "device": .objectPath(ObjectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF")),
            "pair": .structure([.string("fn"), .int64(-9)]),
            "nested": (["keys": .uint16(87)] as [String: DBusValue]).dbusValue,
        ]

        @Test("a{sv} arguments arrive in Python with their types and come back unchanged")
        func dictionaryOfVariants() async throws {
            try await withService { proxy, _ in
                let seen = try await proxy.call(
                    MemberName("Inspect"), [Self.variants.dbusValue], returning: [String: String].self)
                #expect(
                    seen == [
                        "count": "UInt32:7",
                        "name": "String:\"Aula ✓\"",
                        "flag": "Boolean:true",
                        "level": "Byte:200",
                        "temperature": "Double:-1.5",
                        "offset": "Int16:-3",
                        "tags": "Array:[\"rgb\", \"wireless\"]",
                        "device": "ObjectPath:\"/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF\"",
                        "pair": "Struct:[\"fn\", -9]",
                        "nested": "Dictionary:{\"keys\": 87}",
                    ])
                let echoed = try await proxy.call(
                    MemberName("EchoDict"), [Self.variants.dbusValue], returning: [String: DBusValue].self)
                #expect(echoed == Self.variants)
            }
        }

        @Test("a(sss) in both directions, every basic type in, Python errors out")
        func structsBasicsAndErrors() async throws {
            try await withService { proxy, _ in
                let keyboards = try await proxy.call(
                    MemberName("Keyboards"), returning: [DBusStruct<String, String, String>].self)
                #expect(keyboards.map(\.fields.0) == ["bluetooth", "usb"])
                #expect(keyboards.map(\.fields.1) == ["AA:BB:CC:DD:EE:FF", "3151:4002"])
                #expect(keyboards.map(\.fields.2) == ["Aula F87", "Keychron K2"])
                let names = try await proxy.call(
                    MemberName("Names"), [keyboards.reversed().dbusValue], returning: [String].self)
                #expect(names == ["Keychron K2", "Aula F87"])

                let basics: [DBusValue] = [
                    .byte(255), .boolean(true), .int16(.min), .uint16(.max), .int32(.min), .uint32(.max),
                    .int64(.min), .uint64(.max), .double(2.5), .string("héllo ✓"),
                    .objectPath(ObjectPath("/org/bluez/hci0")), .signature(try Signature("a{oa{sa{sv}}}")),
                ]
                let described = try await proxy.call(MemberName("Basics"), basics, returning: String.self)
                let decoded = try JSONDecoder().decode([String].self, from: Data(described.utf8))
                #expect(
                    decoded == [
                        "Byte:255", "Boolean:true", "Int16:-32768", "UInt16:65535", "Int32:-2147483648",
                        "UInt32:4294967295", "Int64:-9223372036854775808", "UInt64:18446744073709551615",
                        "Double:2.5", "String:\"héllo ✓\"", "ObjectPath:\"/org/bluez/hci0\"",
                        "Signature:\"a{oa{sa{sv}}}\"",
                    ])

                let refused = await #expect(throws: DBusError.self) {
                    try await proxy.call(MemberName("Refuse"), [.string("not now")])
                }
                #expect(refused?.name.rawValue == "com.example.Py.Error.Refused")
                #expect(refused?.message == "not now")
                let unknown = await #expect(throws: DBusError.self) { try await proxy.call(MemberName("Missing")) }
                #expect(unknown?.name == .unknownMethod)
            }
        }

        @Test("DBusProxy and PropertyCache read Python's properties, follow its changes and receive its signals")
        func propertiesAndSignals() async throws {
            try await withService { proxy, _ in
                #expect(try await proxy.property(MemberName("Label")) == .string("initial"))
                #expect(try await proxy.property(MemberName("Level"), as: UInt8.self) == 3)
                #expect(try await proxy.property(MemberName("Tags"), as: [String].self) == ["wireless", "rgb"])
                let info = try await proxy.property(MemberName("Info"), as: [String: DBusValue].self)
                #expect(info == ["model": .string("Aula F87"), "keys": .uint16(87)])
                let missing = await #expect(throws: DBusError.self) {
                    try await proxy.property(MemberName("Missing"))
                }
                #expect(missing?.name == .unknownProperty)

                let cache = try await PropertyCache.make(for: proxy)
                #expect(
                    cache.values == [
                        "Label": .string("initial"), "Level": .byte(3),
                        "Tags": .array(.string, [.string("wireless"), .string("rgb")]),
                        "Info": .dictionary(
                            key: .string, value: .variant,
                            [
                                DBusDictionaryEntry(key: .string("model"), value: .variant(.string("Aula F87"))),
                                DBusDictionaryEntry(key: .string("keys"), value: .variant(.uint16(87))),
                            ]),
                    ])

                let ticks = try await proxy.signals(MemberName("Tick"))
                try await proxy.call(MemberName("Change"), [.string("renamed"), .uint32(9)])
                let change = try #require(await first(of: cache.changes))
                #expect(change.changed == ["Label": .string("renamed")])
                #expect(change.invalidated.isEmpty)
                #expect(cache["Label"] == .string("renamed"))
                let tick = try #require(await first(of: ticks))
                #expect(tick.sender == (try await proxy.connection.nameOwner(of: Self.busName)))
                let (count, details) = try tick.decode(UInt32.self, [String: DBusValue].self)
                #expect(count == 9)
                #expect(details == ["label": .string("renamed")])

                try await proxy.setProperty(MemberName("Label"), to: .string("via Set"))
                #expect(await eventually { cache["Label"] == .string("via Set") })
                let readOnly = await #expect(throws: DBusError.self) {
                    try await proxy.setProperty(MemberName("Level"), to: .byte(1))
                }
                #expect(readOnly?.name == .propertyReadOnly)
                cache.stop()
            }
        }
    }
}
