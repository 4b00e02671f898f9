import KeyboardLinkDBus
import Testing

@testable import KBlinkAPI

/// `KeyboardSummary` reads itself straight from the wire, field by field (the list of a thousand keyboards does);
/// this checks that reading against the declared wire form, on a message libdbus marshalled and validated.
@Suite("KeyboardSummary on the wire")
struct KeyboardSummaryWireTests {
    static let summaries: [KeyboardSummary] = [
        KeyboardSummary(
            path: ObjectPath("/org/kblink1/keyboards/dev_00_AA_01_02_00_02"), address: "00:AA:01:02:00:02",
            name: "Aula F87", alias: "Desk ⌨︎", paired: true, trusted: false, connected: true,
            battery: [.init(part: "left", level: 81), .init(part: "right", level: 7)],
            firmware: ["FirmwareRevision": "3.2", "Model": "F87"], driver: "zmk-studio", bonded: false,
            health: .healing, healthDetail: "reconnecting the input profile"),
        KeyboardSummary(
            path: ObjectPath("/org/kblink1/keyboards/dev_00_AA_01_02_00_03"), address: "00:AA:01:02:00:03",
            name: "", alias: "VGN 98Pro", paired: false, trusted: true, connected: false, battery: [], firmware: [:],
            driver: "via", bonded: true, health: .asleep),
    ]

    @Test("an array of summaries reads back from the wire as it was sent, and as the wire form reads it")
    func readsAsTheWireForm() throws {
        var message = Message.signal(
            path: ObjectPath("/org/kblink1"), interface: InterfaceName("org.kblink1.Test"),
            member: MemberName("Keyboards"), body: [Self.summaries.dbusValue, .byte(1)])
        message.serial = 3
        let received = try Message(marshalled: try message.marshalled())
        let (direct, marker) = try received.decode([KeyboardSummary].self, UInt8.self)
        #expect(direct == Self.summaries)
        #expect(marker == 1)
        guard case .array(_, let elements) = received.body[0] else {
            Issue.record("the body's first value is not an array")
            return
        }
        let throughWireForm = try elements.map {
            KeyboardSummary(wireForm: try KeyboardSummary.WireForm(dbusValue: $0))
        }
        #expect(direct == throughWireForm)
        #expect(received.signature.rawValue == "a(osssbbba(sy)a{ss}sbss)y")
    }
}
