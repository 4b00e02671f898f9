/// A key to press with optional held modifiers, such as `A` or `LSFT(KC_1)`.
package struct KeyPress: Hashable, Sendable {
    /// The key.
    package var usage: HIDUsage
    /// Modifiers held while the key is pressed.
    package var modifiers: ModifierSet

    /// Creates a key press.
    package init(_ usage: HIDUsage, modifiers: ModifierSet = []) {
        self.usage = usage
        self.modifiers = modifiers
    }
}

extension KeyPress {
    /// ZMK's key-press parameter: `(modifiers << 24) | (usage_page << 16) | usage_id`.
    /// - Throws: `KeymapError.notEncodable` when the page does not fit in 8 bits.
    package func zmkParam1() throws(KeymapError) -> UInt32 {
        guard usage.page <= 0xFF else {
            throw .notEncodable(
                KeyAction.key(self).description, target: "a ZMK key-press parameter",
                reason: "usage page \(HIDUsage.hex(usage.page, digits: 2)) does not fit in 8 bits")
        }
        return UInt32(modifiers.rawValue) << 24 | UInt32(usage.page) << 16 | UInt32(usage.id)
    }

    /// Decodes ZMK's key-press parameter; page 0 is read as the keyboard page, as ZMK does.
    package init(zmkParam1 value: UInt32) {
        let page = UInt16((value >> 16) & 0xFF)
        self.init(
            HIDUsage(page: page == 0 ? HIDUsage.keyboardPage : page, id: UInt16(value & 0xFFFF)),
            modifiers: ModifierSet(rawValue: UInt8(value >> 24)))
    }
}
