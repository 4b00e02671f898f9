import Testing

@testable import KeyboardLinkDBus

/// The connection-side caches that save work per message: a message built from a kept template
/// (``MessageTemplateCache``) must marshal to the same bytes as one built from scratch, and header names reused from
/// the previous message (``HeaderStringCache``) must be exactly the names of the message being decoded.
@Suite("Message templates and header name reuse")
struct MessageTemplateTests {
    static let longPath = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"

    static func call(_ destination: String?, _ path: String, _ interface: String?, _ member: String) throws -> Message {
        Message.methodCall(
            destination: try destination.map { try BusName($0) }, path: try ObjectPath(path),
            interface: try interface.map { try InterfaceName($0) }, member: try MemberName(member),
            body: [.int32(-7), .string("x")])
    }

    static func reply(to destination: String?, serial: UInt32) throws -> Message {
        var call = try Self.call(nil, "/a", nil, "M")
        call.serial = serial
        call.sender = try destination.map { try BusName($0) }
        return .methodReturn(to: call, body: [.uint32(serial), .string("done")])
    }

    @Test("a call built from a template marshals like one built from scratch, for every call site in turn")
    func callsFromTemplates() throws {
        let templates = MessageTemplateCache()
        let sites: [(String?, String, String?, String)] = [
            (":1.13", "/com/example/bench", "com.example.Bench", "Add"),
            (nil, "/", nil, "Ping"),
            ("org.bluez", Self.longPath, "org.bluez.Device1", "Connect"),
            (":1.13", "/com/example/bench", "com.example.Bench", "Sub"),
            (":1.14", "/com/example/bench", "com.example.Bench", "Add"),
        ]
        // Twice over, so that the second pass copies the templates the first one built.
        for round in 0..<2 {
            for (index, site) in sites.enumerated() {
                let message = try Self.call(site.0, site.1, site.2, site.3)
                let serial = UInt32(100 * round + index + 1)
                let fresh = try MessageCodec.marshalledBytes(message, serial: serial, templates: nil)
                let copied = try MessageCodec.marshalledBytes(message, serial: serial, templates: templates)
                #expect(copied == fresh, "call \(index) in round \(round)")
                let decoded = try Message(marshalled: copied)
                #expect(decoded.path?.rawValue == site.1 && decoded.member?.rawValue == site.3)
                #expect(decoded.destination?.rawValue == site.0 && decoded.interface?.rawValue == site.2)
            }
        }
    }

    @Test("a return built from a template carries its own reply serial and destination, past the cache's capacity")
    func returnsFromTemplates() throws {
        let templates = MessageTemplateCache()
        let peers: [String?] = (0..<(MessageTemplateCache.capacity + 3)).map { ":1.\($0 + 40)" } + [nil, ":1.40"]
        for (index, peer) in peers.enumerated() {
            let serial = UInt32(1_000 + index * 77)
            let message = try Self.reply(to: peer, serial: serial)
            let fresh = try MessageCodec.marshalledBytes(message, serial: 9, templates: nil)
            let copied = try MessageCodec.marshalledBytes(message, serial: 9, templates: templates)
            #expect(copied == fresh, "return to \(peer ?? "nobody")")
            let decoded = try Message(marshalled: copied)
            #expect(decoded.kind == .methodReturn)
            #expect(decoded.replySerial == serial)
            #expect(decoded.destination?.rawValue == peer)
            #expect(decoded.noReplyExpected)
            let (echoed, text) = try decoded.decode(UInt32.self, String.self)
            #expect(echoed == serial && text == "done")
        }
    }

    @Test("header names reused from the previous message are the names of the message decoded")
    func headerNamesFollowEachMessage() throws {
        let strings = HeaderStringCache()
        // Prefixes of each other and repeats: a reused name must match the whole text, not a prefix of it.
        let sites: [(String?, String, String?, String)] = [
            (":1.13", Self.longPath, "org.bluez.Device1", "Connect"),
            (":1.13", Self.longPath, "org.bluez.Device1", "Connect"),
            (":1.1", Self.longPath + "/sep1", "org.bluez.Device", "Connec"),
            (":1.13", Self.longPath, "org.bluez.Device1", "Connect"),
            (nil, "/", nil, "C"),
            (":1.130", Self.longPath + "0", "org.bluez.Device10", "Connect0"),
        ]
        for (index, site) in sites.enumerated() {
            // The sender field is the bus's to write (`makeMessage` leaves it out); the bus tests cover it.
            let message = try Self.call(site.0, site.1, site.2, site.3)
            let bytes = try MessageCodec.marshalledBytes(message, serial: UInt32(index + 1), templates: nil)
            let decoded = try Message(marshalled: bytes, strings: strings)
            #expect(decoded.destination?.rawValue == site.0, "message \(index)")
            #expect(decoded.path?.rawValue == site.1, "message \(index)")
            #expect(decoded.interface?.rawValue == site.2, "message \(index)")
            #expect(decoded.member?.rawValue == site.3, "message \(index)")
            let (number, text) = try decoded.decode(Int32.self, String.self)
            #expect(number == -7 && text == "x")
        }
    }
}
