import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkKeymap

/// The options and the answer of `org.kblink1.Keymap.ImportProfile` (docs/dbus-api.md).
struct ImportOptions: Sendable, Equatable {
    /// Replace every binding and macro (keys the profile leaves out are cleared) instead of merging.
    var replace = false

    /// Reads the `a{sv}` argument: `replace` (b, default false).
    /// - Throws: `org.kblink1.Error.InvalidArgs` naming an unknown key or a value of the wrong type.
    init(_ values: [String: DBusValue]) throws {
        for (key, value) in values {
            switch key {
            case "replace":
                guard case .boolean(let flag) = value.unwrapped else {
                    throw KBlinkError.invalidArgs("import option replace must be a boolean")
                }
                replace = flag
            default:
                throw KBlinkError.invalidArgs("unknown import option \"\(key.prefix(40))\"; known: replace")
            }
        }
    }

    /// The answer: `replaced` (b), `cleared` (u: keys cleared because the profile leaves them out), `changes`
    /// (`a(usss)`: layer, key, old action, new action, in layer then reading order), `macros` (`a(sss)`: name, old
    /// definition, new definition; an empty text for a macro added or removed; ``MacroText/withheld`` for each text
    /// unless `revealingMacroText`).
    static func result(_ summary: ProfileImportSummary, revealingMacroText: Bool) -> DBusValue {
        func text(_ macro: Macro?) -> String {
            let text = macro?.description ?? ""
            return revealingMacroText ? text : MacroText.withholding(text)
        }
        let changes = DBusValue.array(
            .structure([.uint32, .string, .string, .string]),
            summary.bindings.map {
                .structure([
                    .uint32(UInt32(clamping: $0.layer)), .string($0.key.rawValue), .string($0.old.description),
                    .string($0.new.description),
                ])
            })
        let macros = DBusValue.array(
            .structure([.string, .string, .string]),
            summary.macros.map {
                .structure([
                    .string($0.name.rawValue), .string(text($0.old)), .string(text($0.new)),
                ])
            })
        let entries: [(String, DBusValue)] = [
            ("replaced", .boolean(summary.replaced)), ("cleared", .uint32(UInt32(clamping: summary.cleared))),
            ("changes", changes), ("macros", macros),
        ]
        return .dictionary(
            key: .string, value: .variant,
            entries.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }
}
