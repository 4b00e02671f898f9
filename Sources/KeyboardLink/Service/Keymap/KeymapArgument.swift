import KBlinkAPI
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// Checks of `org.kblink1.Keymap` arguments at the bus edge, before any parsing: lengths first, so that a hostile
/// caller's megabyte-long "key name" costs nothing and gets a clear answer.
enum KeymapArgument {
    /// The longest zone name accepted (the longest real one is `alphanumeric`).
    static let zoneLimit = 32
    /// The longest key name accepted (`KeyName` allows 32).
    static let keyLimit = 32
    /// The longest action text accepted (what `KeyAction(parsing:)` reads).
    static let actionLimit = 256
    /// The longest macro name accepted (`MacroName` allows 32).
    static let macroNameLimit = 32
    /// The longest macro definition accepted.
    static let macroDefinitionLimit = Macro.maximumSourceLength
    /// The largest profile JSON `ImportProfile` accepts (``ProfileImportRequest/maximumProfileBytes``).
    static let profileLimit = ProfileImportRequest.maximumProfileBytes

    /// Refuses text longer than `limit` bytes (and empty text unless `allowsEmpty`).
    /// - Throws: `org.kblink1.Error.InvalidArgs` naming the argument and the limit.
    static func check(_ text: String, _ argument: String, limit: Int, allowsEmpty: Bool = false) throws {
        let count = text.utf8.count
        guard count <= limit else {
            throw KBlinkError.invalidArgs("\(argument) is \(count) bytes long; at most \(limit) are accepted")
        }
        guard allowsEmpty || count > 0 else {
            throw KBlinkError.invalidArgs("\(argument) is empty")
        }
    }

    /// A layer number as the model counts them.
    /// - Throws: `org.kblink1.Error.InvalidArgs` for numbers beyond any keymap (the model then checks the
    ///   keyboard's own layer count).
    static func layer(_ value: UInt32) throws -> Int {
        guard value <= UInt32(Keymap.maximumLayers) else {
            throw KBlinkError.invalidArgs(
                "layer \(value) does not exist: keymaps have at most \(Keymap.maximumLayers) layers (0 to "
                    + "\(Keymap.maximumLayers - 1))")
        }
        return Int(value)
    }
}
