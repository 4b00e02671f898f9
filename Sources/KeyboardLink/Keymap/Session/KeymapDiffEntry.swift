/// One difference between the base keymap and what the session would push, as `Diff()` lists it.
public struct KeymapDiffEntry: Hashable, Sendable {
    /// Where the difference comes from.
    public enum Origin: String, Hashable, Sendable, Codable {
        /// An edit in the draft.
        case draft
        /// The keyboard itself holds something else than the base (changed outside kblink).
        case device
    }

    /// The key's zone.
    public var zone: ZoneID
    /// The layer.
    public var layer: Int
    /// The key.
    public var key: KeyName
    /// The base keymap's action.
    public var old: KeyAction
    /// The draft's (or the device's) action.
    public var new: KeyAction
    /// Where the difference comes from.
    public var origin: Origin

    /// Creates an entry.
    public init(zone: ZoneID, layer: Int, key: KeyName, old: KeyAction, new: KeyAction, origin: Origin) {
        self.zone = zone
        self.layer = layer
        self.key = key
        self.old = old
        self.new = new
        self.origin = origin
    }
}

/// One difference between the base macros and the draft's.
public struct MacroDiffEntry: Hashable, Sendable {
    /// The macro name.
    public var name: MacroName
    /// The base's definition; nil when the draft adds the macro.
    public var old: Macro?
    /// The draft's definition; nil when the draft removes the macro.
    public var new: Macro?
}

/// One key's binding as the session shows it.
public struct KeyBinding: Hashable, Sendable {
    /// The key.
    public var key: KeyName
    /// What it does in the draft.
    public var action: KeyAction
    /// Whether the draft changed it from the base.
    public var isChanged: Bool
}
