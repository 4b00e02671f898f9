import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkDrivers

/// The options of `org.kblink1.Keymap.Push` (docs/dbus-api.md).
public struct PushOptions: Sendable, Equatable {
    /// Plan only: report what would be written, write nothing.
    public var dryRun = false
    /// Read the keyboard back after writing and compare before saving.
    public var verify = true
    /// How long to wait for the user to unlock a locked keyboard.
    public var unlockTimeout: Duration = .seconds(30)
    /// After a successful push, turn re-applying on connect on (true) or off (false); nil leaves it as it is.
    public var applyOnConnect: Bool?
    /// How keys that both the draft and the keyboard changed since the base are resolved: `.stop` (the default)
    /// refuses the push naming them, `.keepKeyboard` keeps the keyboard's, `.overwrite` makes the keyboard equal
    /// to the whole draft.
    public var resolution = PushMerge.Resolution.stop
    /// Only ask whether the keyboard's firmware can hold this action (any spelling); nothing is read or written.
    /// Set by `CheckAction`, not a `Push` option: the check needs only `edit-keymap`.
    public var check: String?

    /// The defaults.
    public init() {}

    /// Reads the `a{sv}` argument: `dry-run` (b), `verify` (b), `unlock-timeout` (u, seconds, at most 600),
    /// `apply-on-connect` (b, not with a dry run), `overwrite` (b) or `keep-keyboard` (b), not both.
    /// - Throws: `org.kblink1.Error.InvalidArgs` naming an unknown key or a value of the wrong type.
    public init(_ values: [String: DBusValue]) throws {
        for (key, value) in values {
            switch key {
            case "dry-run":
                guard case .boolean(let flag) = value.unwrapped else { throw Self.wrongType(key, "a boolean") }
                dryRun = flag
            case "verify":
                guard case .boolean(let flag) = value.unwrapped else { throw Self.wrongType(key, "a boolean") }
                verify = flag
            case "unlock-timeout":
                guard case .uint32(let seconds) = value.unwrapped, seconds <= 600 else {
                    throw Self.wrongType(key, "a number of seconds (u) up to 600")
                }
                unlockTimeout = .seconds(Int(seconds))
            case "apply-on-connect":
                guard case .boolean(let flag) = value.unwrapped else { throw Self.wrongType(key, "a boolean") }
                applyOnConnect = flag
            case "overwrite", "keep-keyboard":
                guard case .boolean(let flag) = value.unwrapped else { throw Self.wrongType(key, "a boolean") }
                guard flag else { continue }
                let wanted: PushMerge.Resolution = key == "overwrite" ? .overwrite : .keepKeyboard
                guard resolution == .stop || resolution == wanted else {
                    throw KBlinkError.invalidArgs(
                        "overwrite and keep-keyboard exclude each other: give one (overwrite writes the whole draft, "
                            + "keep-keyboard keeps the keyboard's binding where both changed a key)")
                }
                resolution = wanted
            default:
                throw KBlinkError.invalidArgs(
                    "unknown push option \"\(key.prefix(40))\"; known: dry-run, verify, "
                        + "unlock-timeout, apply-on-connect, overwrite, keep-keyboard")
            }
        }
        if dryRun && applyOnConnect != nil {
            throw KBlinkError.invalidArgs(
                "apply-on-connect takes effect after a push that writes; it cannot go with dry-run")
        }
    }

    private static func wrongType(_ key: String, _ expected: String) -> DBusError {
        KBlinkError.invalidArgs("push option \(key) must be \(expected)")
    }
}
