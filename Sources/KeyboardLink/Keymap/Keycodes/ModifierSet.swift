/// A set of modifier keys, using the HID boot-report bits that ZMK uses too.
///
/// Bits: 0x01 left Ctrl, 0x02 left Shift, 0x04 left Alt, 0x08 left GUI, 0x10 right Ctrl, 0x20 right Shift,
/// 0x40 right Alt, 0x80 right GUI.
package struct ModifierSet: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Left Control.
    package static let leftControl = ModifierSet(rawValue: 0x01)
    /// Left Shift.
    package static let leftShift = ModifierSet(rawValue: 0x02)
    /// Left Alt (Option).
    package static let leftAlt = ModifierSet(rawValue: 0x04)
    /// Left GUI (Windows, Command, Super).
    package static let leftGUI = ModifierSet(rawValue: 0x08)
    /// Right Control.
    package static let rightControl = ModifierSet(rawValue: 0x10)
    /// Right Shift.
    package static let rightShift = ModifierSet(rawValue: 0x20)
    /// Right Alt (AltGr).
    package static let rightAlt = ModifierSet(rawValue: 0x40)
    /// Right GUI.
    package static let rightGUI = ModifierSet(rawValue: 0x80)

    /// The single-bit members, lowest bit first.
    package var members: [ModifierSet] {
        (0..<8).compactMap { bit in
            let member = ModifierSet(rawValue: UInt8(1) << UInt8(bit))
            return contains(member) ? member : nil
        }
    }

    /// The HID usage of the modifier key for a single-bit set (LCtrl 0xE0 ... RGUI 0xE7).
    var usage: HIDUsage? {
        guard rawValue.nonzeroBitCount == 1 else { return nil }
        return .keyboard(0xE0 + UInt16(rawValue.trailingZeroBitCount))
    }

    /// QMK's 5-bit modifier form: bit 4 says "right hand", bits 0-3 are Ctrl, Shift, Alt, GUI.
    ///
    /// Nil when the set mixes left and right modifiers, which QMK's 16-bit keycodes cannot say.
    var qmkBits: UInt16? {
        let left = rawValue & 0x0F
        let right = rawValue >> 4
        if left != 0 && right != 0 { return nil }
        return right != 0 ? 0x10 | UInt16(right) : UInt16(left)
    }

    /// The set described by QMK's 5-bit modifier form.
    init(qmkBits: UInt16) {
        let low = UInt8(qmkBits & 0x0F)
        self = (qmkBits & 0x10) != 0 ? ModifierSet(rawValue: low << 4) : ModifierSet(rawValue: low)
    }
}
