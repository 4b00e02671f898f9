import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkPresence
import Testing

@testable import KeyboardLinkService

/// The presence evaluator's keyboards and reasons as `HardwareKeyboards` and `HardwareKeyboardReasons` carry them.
@Suite struct HardwareKeyboardEntryTests {
    @Test func hardwareKeyboardTravelsAsThreeStrings() throws {
        let keyboard = HardwareKeyboard(source: .evdev, id: "/dev/input/event5", name: "Logitech USB Keyboard")
        #expect(HardwareKeyboardEntry.dbusType == .structure([.string, .string, .string]))
        #expect(
            keyboard.entry.dbusValue
                == .structure([.string("evdev"), .string("/dev/input/event5"), .string("Logitech USB Keyboard")]))
        #expect(try HardwareKeyboardEntry(dbusValue: keyboard.entry.dbusValue) == keyboard.entry)
        #expect(throws: DBusError.self) {
            try HardwareKeyboardEntry(dbusValue: .structure([.string("usb"), .string("x"), .string("y")]))
        }
    }

    @Test func reasonTravelsAsFiveFields() throws {
        let reason = HardwareKeyboardReason(
            source: .evdev, id: "/dev/input/event5", name: "Logitech", counts: true, reason: "usb keyboard")
        #expect(reason.entry.dbusValue.type.signature == "(sssbs)")
        #expect(try HardwareKeyboardReasonEntry(dbusValue: reason.entry.dbusValue) == reason.entry)
        #expect(throws: DBusError.self) {
            try HardwareKeyboardReasonEntry(
                dbusValue: .structure([.string("usb"), .string("x"), .string("y"), .boolean(true), .string("z")]))
        }
    }

    @Test func aResultIsTheThreeManagerPropertiesAtOnce() throws {
        let keyboard = HardwareKeyboard(source: .bluetooth, id: "C8:7F:54:0A:1B:2C", name: "Aula F87")
        let result = PresenceResult(
            keyboards: [keyboard], reasons: [HardwareKeyboardReason(counting: keyboard, reason: "connected")])
        let properties = result.managerProperties
        #expect(
            properties.map(\.property.name.rawValue) == [
                "HardwareKeyboardAttached", "HardwareKeyboards", "HardwareKeyboardReasons",
            ])
        #expect(properties.first?.value == .boolean(true))
        #expect(try [HardwareKeyboardEntry](dbusValue: properties[1].value) == [keyboard.entry])
        #expect(try [HardwareKeyboardReasonEntry](dbusValue: properties[2].value).map(\.reason) == ["connected"])
        #expect(PresenceResult(keyboards: []).managerProperties.first?.value == .boolean(false))
    }
}
