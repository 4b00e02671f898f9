/// The polkit actions kblinkd checks before it acts for a caller, declared in `systemd/org.kblink1.policy`.
///
/// Which method needs which action is listed in `docs/dbus-api.md` ("Authorization").
public enum PolkitAction: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Pair, cancel a pairing, forget a keyboard, change whether it is trusted.
    case pair = "org.kblink1.pair"
    /// Change the keymap draft: bindings, macros, profile imports, undo, redo, discard, the current zone.
    case editKeymap = "org.kblink1.edit-keymap"
    /// Write to or read from a keyboard's firmware (push, pull, apply on connect).
    case writeFirmware = "org.kblink1.write-firmware"
    /// Read the text of macros (which may type passwords), by any path, profile exports included.
    case readMacros = "org.kblink1.read-macros"
    /// Read the text of macros another user set (``readMacros`` covers one's own and those without an owner).
    case readOthersMacros = "org.kblink1.read-others-macros"

    /// The action id polkit knows, such as `org.kblink1.pair`.
    public var id: String { rawValue }

    /// What the action allows, to complete "not authorized to ...".
    public var summary: String {
        switch self {
        case .pair: "pair, forget or trust keyboards"
        case .editKeymap: "edit keymaps and macros"
        case .writeFirmware: "write to a keyboard's firmware"
        case .readMacros: "read the text of macros"
        case .readOthersMacros: "read the text of macros another user set"
        }
    }

    /// Whether the action changes something (and is audited when allowed); reading macros changes nothing.
    public var changesState: Bool { self != .readMacros && self != .readOthersMacros }

    public var description: String { rawValue }
}
