import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import Testing

@testable import KeyboardLinkCommandLine

/// `kblink watch` in words, from the events as kblinkd sends them: typed signal bodies and properties, and text a
/// device chose made safe for a terminal.
@Suite("kblink watch text")
struct WatchTextTests {
    private static let path = KBlink.keyboardPath(try! BluetoothAddress("F8:70:00:00:00:87"))

    private static func changed(_ interface: InterfaceName, _ values: [String: DBusValue]) -> Message {
        .signal(
            path: path, interface: InterfaceName("org.freedesktop.DBus.Properties"),
            member: MemberName("PropertiesChanged"),
            body: [.string(interface.rawValue), values.dbusValue, .array(.string, [])])
    }

    private static var text: WatchText {
        WatchText(
            keyboards: [
                KeyboardSummary(
                    path: path, address: "F8:70:00:00:00:87", name: "Aula F87", alias: "Aula F87", paired: true,
                    trusted: true, connected: true, battery: [], firmware: [:], driver: "via", bonded: true,
                    health: .working)
            ])
    }

    @Test("battery parts, firmware text from the device escaped, and signals decoded by their types")
    func words() throws {
        var text = Self.text
        let battery = KBlinkContract.Keyboard.batteryProperty.assigned([.init(part: "left", level: 80)]).value
        #expect(
            text.lines(for: Self.changed(KBlink.keyboardInterface, ["Battery": .variant(battery)]))
                == ["Aula F87: battery left 80%"])
        let firmware = ["Manufacturer": "evil\u{1B}[2J"].dbusValue
        let lines = text.lines(for: Self.changed(KBlink.keyboardInterface, ["Firmware": .variant(firmware)]))
        #expect(lines.count == 1)
        #expect(!lines[0].contains("\u{1B}"), "\(lines)")

        let progress = Message.signal(
            path: Self.path, interface: KBlink.keymapInterface, member: MemberName("PushProgress"),
            body: PushProgress(done: 3, total: 7).body)
        #expect(text.lines(for: progress) == ["Aula F87: pushing the keymap, 3 of 7 written"])
        // A body of another shape says nothing rather than something wrong.
        let malformed = Message.signal(
            path: Self.path, interface: KBlink.keymapInterface, member: MemberName("PushProgress"),
            body: [.string("3"), .uint32(7)])
        #expect(text.lines(for: malformed).isEmpty)
    }
}
