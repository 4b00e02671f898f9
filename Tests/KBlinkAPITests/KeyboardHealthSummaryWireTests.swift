import KeyboardLinkDBus
import Testing

@testable import KBlinkAPI

/// `Manager.HealthSummary`'s answer on the wire, on a message libdbus marshalled and validated.
@Suite("KeyboardHealthSummary on the wire")
struct KeyboardHealthSummaryWireTests {
    static let summary = KeyboardHealthSummary(
        counts: ["working": 997, "failed": 1, "healing": 1, "asleep": 1],
        needingAttention: [
            .init(
                path: ObjectPath("/org/kblink1/keyboards/dev_00_AA_01_02_00_02"), address: "00:AA:01:02:00:02",
                alias: "Desk ⌨︎", health: .failed, healthDetail: "no input device after 3 steps; try kblink forget"),
            .init(
                path: ObjectPath("/org/kblink1/keyboards/dev_00_AA_01_02_00_03"), address: "00:AA:01:02:00:03",
                alias: "VGN 98Pro", health: .healing, healthDetail: "reconnecting"),
        ])

    static func received(_ body: [DBusValue]) throws -> Message {
        var message = Message.signal(
            path: ObjectPath("/org/kblink1"), interface: InterfaceName("org.kblink1.Test"),
            member: MemberName("Health"), body: body)
        message.serial = 3
        return try Message(marshalled: try message.marshalled())
    }

    @Test("a summary reads back as it was sent, under the declared signature")
    func roundTrip() throws {
        let received = try Self.received([Self.summary.dbusValue])
        #expect(received.signature.rawValue == "(a{su}a(ossss))")
        let (summary) = try received.decode(KeyboardHealthSummary.self)
        #expect(summary == Self.summary)
        #expect(summary.count(of: .working) == 997)
        #expect(summary.count(of: .waiting) == 0)
    }

    @Test("an entry with a health word kblink does not know is refused, naming the words that exist")
    func unknownHealth() throws {
        let entry = DBusValue.structure([
            .objectPath(ObjectPath("/org/kblink1/keyboards/dev_00_AA_01_02_00_02")), .string("00:AA:01:02:00:02"),
            .string("Desk"), .string("sulking"), .string(""),
        ])
        let body = DBusValue.structure([
            .dictionary(key: .string, value: .uint32, []), .array(KeyboardHealthSummary.Entry.dbusType, [entry]),
        ])
        let received = try Self.received([body])
        #expect(received.signature.rawValue == "(a{su}a(ossss))")
        let error = #expect(throws: DBusError.self) { try received.decode(KeyboardHealthSummary.self) }
        #expect(error?.message.contains("sulking") == true)
        #expect(error?.message.contains("working") == true)
    }

    @Test("which healths are listed as needing attention")
    func attention() {
        #expect(KeyboardHealth.allCases.filter(KeyboardHealthSummary.needsAttention) == [.waiting, .healing, .failed])
    }
}
