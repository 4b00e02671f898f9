/// One difference between the base keymap and what the session would push, as `Diff()` lists it.
package struct KeymapDiffEntry: Hashable, Sendable {
    /// Where the difference comes from.
    package enum Origin: String, Hashable, Sendable, Codable {
        /// An edit in the draft.
        case draft
        /// The keyboard itself holds something else than the base (changed outside kblink).
        case device
    }

    /// The key's zone.
    package var zone: ZoneID
    /// The layer.
    package var layer: Int
    /// The key.
    package var key: KeyName
    /// The base keymap's action.
    package var old: KeyAction
    /// The draft's (or the device's) action.
    package var new: KeyAction
    /// Where the difference comes from.
    package var origin: Origin

    /// Creates an entry.
    package init(zone: ZoneID, layer: Int, key: KeyName, old: KeyAction, new: KeyAction, origin: Origin) {
        self.zone = zone
        self.layer = layer
        self.key = key
        self.old = old
        self.new = new
        self.origin = origin
    }
}

/// One difference between the base macros and the draft's.
package struct MacroDiffEntry: Hashable, Sendable {
    /// The macro name.
    package var name: MacroName
    /// The base's definition; nil when the draft adds the macro.
    package var old: Macro?
    /// The draft's definition; nil when the draft removes the macro.
    package var new: Macro?
}

/// One key's binding as the session shows it.
package struct KeyBinding: Hashable, Sendable {
    /// The key.
    package var key: KeyName
    /// What it does in the draft.
    package var action: KeyAction
    /// Whether the draft changed it from the base.
    package var isChanged: Bool
}
