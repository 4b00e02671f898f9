import KeyboardLink
import Testing

/// Names and values that make libdbus abort the process if they reach it. Every public entry point must
/// refuse them with an error; the test process surviving is part of the assertion.
@Suite("Hostile names and values never reach libdbus")
struct HostileInputTests {
    static let hostile: [String] = [
        "", "org/bluez/dev_AA:BB", "/org/bluez/dev_AA:BB", "//", "/trailing/", "org.", ".org", "a..b", "1org.x",
        String(repeating: "a.", count: 200) + "b", "with\u{0}nul", "/with\u{0}nul", "org.bluez\u{0}", "héllo.world",
        "/dev_\u{FFFD}", "x", ":", "org.freedesktop.DBus.Error.\u{1F3B9}", "(", "a{vs}",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ]

    @Test("name initialisers refuse hostile text with a clear error", arguments: HostileInputTests.hostile)
    func namesRefuse(_ text: String) {
        // A string may be valid for one kind of name and not another; what must never happen is a valid
        // result for text that breaks that kind's rules. Check the known-invalid ones per kind.
        if text.utf8.contains(0) || text.isEmpty {
            #expect(ObjectPath(validating: text) == nil)
            #expect(BusName(validating: text) == nil)
            #expect(InterfaceName(validating: text) == nil)
            #expect(MemberName(validating: text) == nil)
            #expect(ErrorName(validating: text) == nil)
        }
        do {
            _ = try ObjectPath(text)
            #expect(text.hasPrefix("/") && !text.contains(":") && !text.utf8.contains(0))
        } catch {
            #expect(!error.description.isEmpty)
            #expect(error.description.contains("invalid object path"))
        }
    }

    @Test(
        "specific rules",
        arguments: [
            ("/org/bluez/hci0", true), ("/", true), ("/org/bluez/dev_AA:BB", false), ("org/bluez", false),
            ("/a//b", false),
            ("/a/", false), ("/a-b", false),
        ])
    func objectPaths(_ text: String, _ valid: Bool) {
        #expect((ObjectPath(validating: text) != nil) == valid)
    }

    @Test(
        "bus names",
        arguments: [
            ("org.kblink1", true), (":1.42", true), ("org.bluez", true), ("com.example-x.y", true), ("org", false),
            ("org..x", false), ("1org.x", false), (":1", false), (String(repeating: "a", count: 254) + ".b", false),
        ])
    func busNames(_ text: String, _ valid: Bool) {
        #expect((BusName(validating: text) != nil) == valid)
    }

    @Test(
        "signatures",
        arguments: [
            ("a{oa{sa{sv}}}", true), ("", true), ("(sss)", true), ("a(sy)", true), ("a{vs}", false), ("()", false),
            ("(", false), ("a", false), ("{sv}", false), ("z", false), (String(repeating: "a", count: 33) + "y", false),
            (String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33), false),
        ])
    func signatures(_ text: String, _ valid: Bool) {
        #expect(((try? Signature(text)) != nil) == valid)
    }

    @Test("values with NUL, mistyped array elements and bad nesting are refused before sending")
    func hostileValues() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: EchoService.path,
                interface: EchoService.interface)
            let echo = MemberName("Echo")
            let bad: [DBusValue] = [
                .string("nul\u{0}inside"),
                .array(.string, [.uint32(1)]),
                .dictionary(
                    key: .string, value: .variant, [DBusDictionaryEntry(key: .uint32(1), value: .variant(.byte(1)))]),
                .dictionary(key: .variant, value: .string, []),
                .structure([]),
                (0..<70).reduce(DBusValue.byte(1)) { inner, _ in .variant(inner) },
            ]
            for value in bad {
                await #expect(throws: DBusError.self) { try await proxy.call(echo, [.variant(value)]) }
            }
            // Hostile strings that are valid UTF-8 travel fine.
            for text in ["\u{FFFF}", "\u{FEFF}", "\u{10FFFF}", "emoji 🎹", "\u{7F}"] {
                let echoed: DBusValue = try await proxy.call(echo, [.variant(.string(text))], returning: DBusValue.self)
                #expect(echoed == .string(text))
            }
            #expect(throws: DBusError.self) { try BusAddress(parsing: "not an address") }
            #expect(throws: DBusError.self) { try BusAddress(parsing: "unix:path=/x\u{0}") }
            // The connection still works after all of that.
            #expect(try await proxy.call(MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self) == 3)
        }
    }

    @Test("a hostile peer's calls get errors and the server keeps serving")
    func hostileCalls() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            // Properties with bad interface/property names, wrong arity and types.
            let calls: [(String, [DBusValue])] = [
                ("Get", [.string("not an interface"), .string("Name")]),
                ("Get", [.string("com.example.Echo"), .string("bad name!")]),
                ("Get", [.string("com.example.Echo")]),
                ("GetAll", [.uint32(1)]),
                ("Set", [.string("com.example.Echo"), .string("Volume"), .variant(.string("loud"))]),
                ("Set", [.string("com.example.Echo"), .string("Volume")]),
            ]
            for (member, body) in calls {
                await #expect(throws: DBusError.self) {
                    try await client.call(
                        destination: server.uniqueName, path: EchoService.path, interface: .properties,
                        member: try MemberName(member), body)
                }
            }
            let proxy = DBusProxy(
                connection: client, destination: server.uniqueName, path: EchoService.path,
                interface: EchoService.interface)
            #expect(try await proxy.call(MemberName("Add"), [.int32(2), .int32(2)], returning: Int32.self) == 4)
        }
    }
}
