import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Everything that can go wrong in the keymap model: bad names, bad layers, bad macros, bad files.
///
/// Every case carries what is needed for a message a person can act on (`description`); `category` tells the
/// D-Bus layer which `org.kblink1.Error.*` name fits.
package enum KeymapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key action name that no spelling knows; `suggestion` is the nearest known name.
    case unknownKeycode(String, suggestion: String?)
    /// A key action expression that does not follow the grammar (`LSFT(KC_1`, `MO(x)`, ...).
    case malformedAction(String, reason: String)
    /// An action that the target encoding (VIA 16-bit keycode, ZMK parameter, VIA macro) cannot carry.
    case notEncodable(String, target: String, reason: String)
    /// A key name that is not valid at all (characters, length).
    case invalidKeyName(String, reason: String)
    /// A key that the layout does not have; `suggestion` is the nearest key name of that layout.
    case unknownKey(String, layout: String, suggestion: String?)
    /// A key that exists but belongs to another zone than the one named.
    case keyNotInZone(key: String, zone: String, actualZone: String)
    /// A zone name that is not one of the known zones.
    case unknownZone(String)
    /// A zone that this layout does not define.
    case zoneNotInLayout(zone: String, layout: String, available: [String])
    /// Two zones whose keys do not line up one to one.
    case zoneShapeMismatch(first: String, second: String, reason: String)
    /// A layer number outside the keymap.
    case layerOutOfRange(Int, layerCount: Int)
    /// A layout id that no built-in or loaded layout has.
    case unknownLayout(String, available: [String])
    /// A layout definition (built-in, JSON or KLE) that is inconsistent.
    case invalidLayout(String)
    /// A macro name outside `[A-Za-z0-9_-]{1,32}`.
    case invalidMacroName(String)
    /// A macro definition that does not parse; `offset` counts characters from the start.
    case macroSyntax(String, offset: Int, reason: String)
    /// A macro that parses but breaks a rule (delay range, text characters, size).
    case invalidMacro(String)
    /// A macro name that is not defined.
    case macroNotFound(String)
    /// A macro that cannot be removed because keys are bound to it.
    case macroInUse(String, boundTo: [String])
    /// A layer that cannot be removed because keys on other layers switch to it.
    case layerInUse(Int, switchedBy: [String])
    /// An edit that is well-formed but makes no sense (copying a layer onto itself, swapping a zone with itself).
    case invalidEdit(String)
    /// Undo with nothing to undo.
    case nothingToUndo
    /// Redo with nothing to redo.
    case nothingToRedo
    /// Input event bytes that are not a sequence of 24-byte `struct input_event` records.
    case invalidInputEvents(String)
    /// A profile or draft document that is invalid (wrong types, bad values, unsupported schema).
    case invalidProfile(String)
    /// A Bluetooth address that is not six colon-separated hex bytes.
    case invalidAddress(String)
    /// A file operation that failed; `errno` is the C error number.
    case io(operation: String, path: String, errno: Int32)

    /// The family of an error, for mapping onto `org.kblink1.Error.*` names.
    package enum Category: Sendable, Equatable {
        /// The caller passed something invalid (`org.kblink1.Error.InvalidArgs`).
        case invalidArgs
        /// The caller named something that does not exist (`org.kblink1.Error.NotFound`).
        case notFound
        /// The request is valid but cannot be done (`org.kblink1.Error.NotSupported`).
        case notSupported
        /// Anything else, such as a failed write (`org.kblink1.Error.Failed`).
        case failed
    }

    /// The family of this error.
    package var category: Category {
        switch self {
        case .unknownKeycode, .malformedAction, .invalidKeyName, .keyNotInZone, .unknownZone, .zoneShapeMismatch,
            .layerOutOfRange, .invalidLayout, .invalidMacroName, .invalidEdit, .macroSyntax, .invalidMacro,
            .invalidInputEvents, .invalidProfile, .invalidAddress:
            return .invalidArgs
        case .unknownKey, .zoneNotInLayout, .unknownLayout, .macroNotFound:
            return .notFound
        case .notEncodable, .nothingToUndo, .nothingToRedo:
            return .notSupported
        case .io, .macroInUse, .layerInUse:
            // A macro still bound is the keymap's state, not a bad argument.
            return .failed
        }
    }

    /// What went wrong, bounded: a message quoting hostile input never grows past 600 characters.
    package var description: String {
        let full = fullDescription
        guard full.count > 600 else { return full }
        return String(full.prefix(600)) + "… (message shortened)"
    }

    private var fullDescription: String {
        switch self {
        case .unknownKeycode(let name, let suggestion):
            let hint =
                suggestion.map { "; did you mean '\($0)'?" } ?? "; use a QMK (KC_A), ZMK (A) or evdev (KEY_A) name"
            return "unknown key code '\(Self.printable(name))'\(hint)"
        case .malformedAction(let text, let reason):
            return "cannot read the action '\(Self.printable(text))': \(reason)"
        case .notEncodable(let action, let target, let reason):
            return "\(action) cannot be written as \(target): \(reason)"
        case .invalidKeyName(let name, let reason):
            return "'\(Self.printable(name))' is not a valid key name: \(reason)"
        case .unknownKey(let name, let layout, let suggestion):
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "layout \(layout) has no key named '\(Self.printable(name))'\(hint)"
        case .keyNotInZone(let key, let zone, let actualZone):
            return "key \(key) is in the \(actualZone) zone, not in the \(zone) zone"
        case .unknownZone(let name):
            return "unknown zone '\(Self.printable(name))'; zones are standard, number, function and navigation"
        case .zoneNotInLayout(let zone, let layout, let available):
            return "layout \(layout) has no \(zone) zone; it has \(available.joined(separator: ", "))"
        case .zoneShapeMismatch(let first, let second, let reason):
            return "zones \(first) and \(second) do not have the same shape: \(reason)"
        case .layerOutOfRange(let layer, let count):
            return "layer \(layer) does not exist: this keymap has layers 0 to \(max(count - 1, 0))"
        case .unknownLayout(let id, let available):
            return "unknown layout '\(Self.printable(id))'; known layouts: \(available.joined(separator: ", "))"
        case .invalidLayout(let reason):
            return "invalid layout: \(reason)"
        case .invalidMacroName(let name):
            return "'\(Self.printable(name))' is not a valid macro name: use 1 to 32 letters, digits, '_' or '-'"
        case .macroSyntax(let text, let offset, let reason):
            // Never the macro's text: a macro may type a secret, and an error may reach a log.
            _ = text
            return "cannot read the macro at character \(offset + 1): \(reason)"
        case .invalidMacro(let reason):
            return "invalid macro: \(reason)"
        case .macroNotFound(let name):
            return "no macro named '\(Self.printable(name))'; define it first"
        case .macroInUse(let name, let keys):
            return "macro \(name) is still bound to \(keys.joined(separator: ", ")); rebind those keys first"
        case .layerInUse(let layer, let keys):
            return "layer \(layer) is switched to by \(keys.joined(separator: ", ")); rebind those keys first"
        case .invalidEdit(let reason):
            return "invalid edit: \(reason)"
        case .nothingToUndo:
            return "nothing to undo"
        case .nothingToRedo:
            return "nothing to redo"
        case .invalidInputEvents(let reason):
            return "invalid input events: \(reason)"
        case .invalidProfile(let reason):
            return "invalid profile: \(reason)"
        case .invalidAddress(let text):
            return "'\(Self.printable(text))' is not a Bluetooth address: use six hex bytes such as AA:BB:CC:DD:EE:FF"
        case .io(let operation, let path, let code):
            return FileError(operation: operation, path: path, errno: code).description
        }
    }

    /// Shortens and escapes text so that hostile input cannot flood or garble a message.
    package static func printable(_ text: String) -> String {
        text.errorExcerpt(limit: 64)
    }
}
