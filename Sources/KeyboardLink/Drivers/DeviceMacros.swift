import KeyboardLinkKeymap

/// The macros a keyboard defines at run time (VIA's dynamic macros): what each of its macro slots holds.
///
/// Keys play a slot by number (`DeviceKeymap.Binding.macroSlot`); the slots carry no names. Keyboards whose macros
/// are compiled into the firmware (ZMK) have no `DeviceMacros`.
package struct DeviceMacros: Sendable, Hashable {
    /// What one macro slot holds.
    package enum Slot: Sendable, Hashable, CustomStringConvertible {
        /// Nothing: playing it sends no keys.
        case empty
        /// A macro kblink decoded, in its canonical form (`Macro.normalized()`).
        case macro(Macro)
        /// Bytes kblink cannot read (written by another tool, or a half-written buffer), described for people.
        case other(String)

        package var description: String {
            switch self {
            case .empty: "empty"
            case .macro(let macro): macro.description
            case .other(let text): text
            }
        }
    }

    /// The slots, in slot order (slot n plays on QMK's keycode `QK_MACRO_n`); as many as the keyboard has.
    package var slots: [Slot]
    /// The bytes the keyboard's macro storage holds (VIA `macro_get_buffer_size`).
    package var capacity: Int
    /// The storage as read, byte for byte, so that a rollback restores slots kblink cannot decode.
    package var storage: [UInt8]

    /// Creates the macros of a keyboard.
    package init(slots: [Slot], capacity: Int, storage: [UInt8]) {
        self.slots = slots
        self.capacity = capacity
        self.storage = storage
    }

    /// The slot holding `macro` (compared in canonical form), ignoring `taken` slots; nil when none does.
    func slot(holding macro: Macro, excluding taken: Set<Int>) -> Int? {
        let wanted = Slot.macro(macro.normalized())
        return slots.indices.first { !taken.contains($0) && slots[$0] == wanted }
    }
}
