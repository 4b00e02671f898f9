/// A HID usage: the page (0x07 keyboard, 0x0C consumer, 0x01 generic desktop) and the usage id on that page.
package struct HIDUsage: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The usage page.
    package var page: UInt16
    /// The usage id on the page.
    package var id: UInt16

    /// Creates a usage from its page and id.
    package init(page: UInt16, id: UInt16) {
        self.page = page
        self.id = id
    }

    /// The keyboard/keypad page (0x07).
    package static let keyboardPage: UInt16 = 0x07
    /// The consumer page (0x0C): volume, media, browser keys.
    package static let consumerPage: UInt16 = 0x0C
    /// The generic desktop page (0x01): system power, sleep, wake.
    package static let genericDesktopPage: UInt16 = 0x01

    /// A usage on the keyboard page.
    package static func keyboard(_ id: UInt16) -> HIDUsage { HIDUsage(page: keyboardPage, id: id) }
    /// A usage on the consumer page.
    package static func consumer(_ id: UInt16) -> HIDUsage { HIDUsage(page: consumerPage, id: id) }

    /// Whether this is one of the eight modifier keys (keyboard page 0xE0-0xE7).
    package var isModifier: Bool { page == Self.keyboardPage && (0xE0...0xE7).contains(id) }

    /// The modifier bit of a modifier key (LCtrl 0x01 ... RGUI 0x80), nil for other keys.
    package var modifierBit: ModifierSet? {
        guard isModifier else { return nil }
        return ModifierSet(rawValue: UInt8(1) << UInt8(id - 0xE0))
    }

    package static func < (lhs: HIDUsage, rhs: HIDUsage) -> Bool { (lhs.page, lhs.id) < (rhs.page, rhs.id) }

    package var description: String { "HID(\(Self.hex(page, digits: 2)), \(Self.hex(id, digits: 2)))" }

    static func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
