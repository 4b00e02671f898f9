/// What a keyboard's profile says besides its keymap: where its base came from, whether that base is known to
/// be on the keyboard, and whether the daemon re-applies it when the keyboard connects.
package struct ProfileSettings: Hashable, Sendable {
    /// Where a profile's base keymap came from.
    package enum BaseOrigin: String, Sendable, Hashable, CaseIterable {
        /// kblink's default keymap for the layout: the keyboard's own keymap was never read (a push reads it
        /// first, or needs `--overwrite`).
        case builtInDefault = "default"
        /// Read from the keyboard (on first contact, or by `Pull`).
        case keyboard
        /// Written to the keyboard by a push and read back there.
        case pushed
    }

    /// The base was written to the keyboard (or found there) by a successful push and verified: re-applying it
    /// restores what the user pushed, never kblink's guessed defaults.
    package var baseOnDevice: Bool
    /// At each connection, read the keyboard and write back the base's bindings where the keyboard differs.
    package var applyOnConnect: Bool
    /// Where the base came from.
    package var baseOrigin: BaseOrigin
    /// When the base was read or pushed, in seconds since 1970 (UTC); nil when not known (the built-in default,
    /// or a profile of an older kblink).
    package var baseSince: Int64?
    /// Who set each macro: the uid of the user whose call last set its text (`SetMacro`, `ImportProfile`), by name.
    /// A macro without an entry came from the keyboard or from a kblink that did not record owners. Reading another
    /// user's macro needs `org.kblink1.read-others-macros` (docs/dbus-api.md, "Authorization").
    package var macroOwners: [String: UInt32] = [:]

    /// Creates settings; all off by default (as in profiles written before they existed), the base kblink's own.
    package init(
        baseOnDevice: Bool = false, applyOnConnect: Bool = false, baseOrigin: BaseOrigin? = nil,
        baseSince: Int64? = nil
    ) {
        self.baseOnDevice = baseOnDevice
        self.applyOnConnect = applyOnConnect
        self.baseOrigin = baseOrigin ?? (baseOnDevice ? .pushed : .builtInDefault)
        self.baseSince = baseSince
    }

    /// Whether a connection should trigger a re-apply: asked for, and there is a pushed base to re-apply.
    package var reappliesOnConnect: Bool { applyOnConnect && baseOnDevice }

    /// Whether the base is what the keyboard held when kblinkd last read or wrote it (not kblink's guess).
    package var baseIsFromKeyboard: Bool { baseOrigin != .builtInDefault }
}
