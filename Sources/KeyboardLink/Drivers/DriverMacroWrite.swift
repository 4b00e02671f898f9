import KeyboardLinkKeymap

/// The macro slots a push gives a keyboard with runtime macros (VIA): every slot's new content and which differ.
///
/// `DriverPush` plans it: each macro the profile binds gets a slot (the slot that already holds it when there is
/// one, else the lowest free one, names in sorted order); slots no bound macro needs are emptied.
package struct DriverMacroWrite: Sendable, Hashable {
    /// A macro in a slot.
    package struct Entry: Sendable, Hashable {
        /// The profile's name for it.
        package var name: MacroName
        /// Its steps.
        package var macro: Macro

        /// Creates an entry.
        package init(name: MacroName, macro: Macro) {
            self.name = name
            self.macro = macro
        }
    }

    /// Per slot, in slot order, what it will hold (nil: empty); as many as the keyboard has.
    package var slots: [Entry?]
    /// The slots whose content changes, ascending.
    package var changed: [Int]

    /// Creates a macro write.
    package init(slots: [Entry?], changed: [Int]) {
        self.slots = slots
        self.changed = changed
    }

    /// The slot of each bound macro.
    package var assignment: [MacroName: Int] {
        var result: [MacroName: Int] = [:]
        for (slot, entry) in slots.enumerated() {
            if let entry { result[entry.name] = slot }
        }
        return result
    }
}
