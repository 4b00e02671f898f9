/// The first parameter of a ZMK "Key Press" binding: `(modifiers << 24) | (usage page << 16) | usage id`.
package struct StudioHIDUsage: Hashable, Sendable, CustomStringConvertible {
    /// Modifier bits ZMK applies with the key (`LC(...)`, `LS(...)`, ...).
    package struct Modifiers: OptionSet, Hashable, Sendable {
        /// The modifier byte.
        package let rawValue: UInt8
        /// Wraps a modifier byte.
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0x01.
        package static let leftControl = Modifiers(rawValue: 0x01)
        /// Bit 0x02.
        package static let leftShift = Modifiers(rawValue: 0x02)
        /// Bit 0x04.
        package static let leftAlt = Modifiers(rawValue: 0x04)
        /// Bit 0x08.
        package static let leftGUI = Modifiers(rawValue: 0x08)
        /// Bit 0x10.
        package static let rightControl = Modifiers(rawValue: 0x10)
        /// Bit 0x20.
        package static let rightShift = Modifiers(rawValue: 0x20)
        /// Bit 0x40.
        package static let rightAlt = Modifiers(rawValue: 0x40)
        /// Bit 0x80.
        package static let rightGUI = Modifiers(rawValue: 0x80)
    }

    /// The HID usage page of the keyboard page.
    package static let keyboardPage: UInt8 = 0x07
    /// The HID usage page of consumer controls (media keys).
    package static let consumerPage: UInt8 = 0x0C

    /// The HID usage page (0x07 keyboard, 0x0C consumer).
    package var page: UInt8
    /// The usage id within the page (0x04 is A on the keyboard page).
    package var id: UInt16
    /// Modifiers pressed with the key.
    package var modifiers: Modifiers

    /// Creates a usage.
    package init(page: UInt8, id: UInt16, modifiers: Modifiers = []) {
        self.page = page
        self.id = id
        self.modifiers = modifiers
    }

    /// Splits a binding's `param1`. Every 32-bit value splits into some usage, so this cannot fail.
    package init(param1: UInt32) {
        modifiers = Modifiers(rawValue: UInt8(truncatingIfNeeded: param1 >> 24))
        page = UInt8(truncatingIfNeeded: param1 >> 16)
        id = UInt16(truncatingIfNeeded: param1)
    }

    /// The value for a binding's `param1`.
    package var param1: UInt32 {
        UInt32(modifiers.rawValue) << 24 | UInt32(page) << 16 | UInt32(id)
    }

    package var description: String {
        "page 0x\(String(page, radix: 16)) id 0x\(String(id, radix: 16)) modifiers 0x\(String(modifiers.rawValue, radix: 16))"
    }
}
