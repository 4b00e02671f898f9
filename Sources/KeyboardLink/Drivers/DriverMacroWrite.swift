import KeyboardLinkKeymap

/// The macro slots a push gives a keyboard with runtime macros (VIA): every slot's new content and which differ.
///
/// `DriverPush` plans it: each macro the profile binds gets a slot (the slot that already holds it when there is
/// one, else the lowest free one, names in sorted order); slots no bound macro needs are emptied.
public struct DriverMacroWrite: Sendable, Hashable {
    /// A macro in a slot.
    public struct Entry: Sendable, Hashable {
        /// The profile's name for it.
        public var name: MacroName
        /// Its steps.
        public var macro: Macro

        /// Creates an entry.
        public init(name: MacroName, macro: Macro) {
            self.name = name
            self.macro = macro
        }
    }

    /// Per slot, in slot order, what it will hold (nil: empty); as many as the keyboard has.
    public var slots: [Entry?]
    /// The slots whose content changes, ascending.
    public var changed: [Int]

    /// Creates a macro write.
    public init(slots: [Entry?], changed: [Int]) {
        self.slots = slots
        self.changed = changed
    }

    /// The slot of each bound macro.
    public var assignment: [MacroName: Int] {
        var result: [MacroName: Int] = [:]
        for (slot, entry) in slots.enumerated() {
            if let entry { result[entry.name] = slot }
        }
        return result
    }
}
