import KeyboardLinkDBus

/// The options of `org.kblink1.Keymap.Push`, on the wire `a{sv}`: `dry-run` (b), `verify` (b), `unlock-timeout`
/// (u, seconds, at most 600), `apply-on-connect` (b, not with a dry run), `overwrite` (b) or `keep-keyboard` (b),
/// not both. Decoding refuses an unknown key, a value of another type and the combinations named, so that the
/// daemon works only with options that make sense.
public struct PushRequest: Sendable, Equatable, DBusRepresentable {
    /// Plan only: report what would be written, write nothing.
    public var dryRun: Bool
    /// Read the keyboard back after writing and compare before saving.
    public var verify: Bool
    /// Seconds to wait for the user to unlock a locked keyboard; nil for the daemon's default (30).
    public var unlockTimeout: UInt32?
    /// After a successful push, turn re-applying on connect on or off; nil leaves it as it is.
    public var applyOnConnect: Bool?
    /// Make the keyboard equal to the whole draft instead of writing only the user's edits.
    public var overwrite: Bool
    /// Where both the draft and the keyboard changed a key, keep the keyboard's binding.
    public var keepKeyboard: Bool

    /// The longest wait for an unlock a caller may ask for, in seconds.
    public static let unlockTimeoutLimit: UInt32 = 600

    /// Options as given (checked when decoded, not here: see ``validate()``).
    public init(
        dryRun: Bool = false, verify: Bool = true, unlockTimeout: UInt32? = nil, applyOnConnect: Bool? = nil,
        overwrite: Bool = false, keepKeyboard: Bool = false
    ) {
        self.dryRun = dryRun
        self.verify = verify
        self.unlockTimeout = unlockTimeout
        self.applyOnConnect = applyOnConnect
        self.overwrite = overwrite
        self.keepKeyboard = keepKeyboard
    }

    private static let keys = ["dry-run", "verify", "unlock-timeout", "apply-on-connect", "overwrite", "keep-keyboard"]

    /// `a{sv}`.
    public static var dbusType: DBusType { .dictionary(key: .string, value: .variant) }

    /// Decodes and checks the options.
    /// - Throws: `InvalidArgs` naming an unknown key, a value of the wrong type or options that exclude each other.
    public init(dbusValue: DBusValue) throws {
        let record = try VariantRecord("push option", dbusValue: dbusValue)
        try record.requireKnownKeys(Self.keys)
        self.init(
            dryRun: try record.value("dry-run", or: false), verify: try record.value("verify", or: true),
            unlockTimeout: try record.optional("unlock-timeout"),
            applyOnConnect: try record.optional("apply-on-connect"),
            overwrite: try record.value("overwrite", or: false),
            keepKeyboard: try record.value("keep-keyboard", or: false))
        try validate()
    }

    /// Checks the combinations: the unlock wait's limit, `overwrite` with `keep-keyboard`, `apply-on-connect` with
    /// a dry run.
    /// - Throws: `InvalidArgs` saying which.
    public func validate() throws {
        if let unlockTimeout, unlockTimeout > Self.unlockTimeoutLimit {
            throw KBlinkError.invalidArgs(
                "push option unlock-timeout must be a number of seconds (u) up to \(Self.unlockTimeoutLimit)")
        }
        if overwrite && keepKeyboard {
            throw KBlinkError.invalidArgs(
                "overwrite and keep-keyboard exclude each other: give one (overwrite writes the whole draft, "
                    + "keep-keyboard keeps the keyboard's binding where both changed a key)")
        }
        if dryRun && applyOnConnect != nil {
            throw KBlinkError.invalidArgs(
                "apply-on-connect takes effect after a push that writes; it cannot go with dry-run")
        }
    }

    /// The options as `a{sv}`: `dry-run` and `verify` always, the others when set.
    public var dbusValue: DBusValue {
        var record = VariantRecord("push option")
        record.set("dry-run", dryRun)
        record.set("verify", verify)
        if let unlockTimeout { record.set("unlock-timeout", unlockTimeout) }
        if overwrite { record.set("overwrite", true) }
        if keepKeyboard { record.set("keep-keyboard", true) }
        if let applyOnConnect { record.set("apply-on-connect", applyOnConnect) }
        return record.dbusValue
    }
}
