/// What a keyboard's profile says besides its keymap: whether its base is known to be on the keyboard, and
/// whether the daemon re-applies it when the keyboard connects.
public struct ProfileSettings: Hashable, Sendable {
    /// The base was written to the keyboard (or found there) by a successful push and verified: re-applying it
    /// restores what the user pushed, never kblink's guessed defaults.
    public var baseOnDevice: Bool
    /// At each connection, read the keyboard and write back the base's bindings where the keyboard differs.
    public var applyOnConnect: Bool

    /// Creates settings; both off by default (as in profiles written before they existed).
    public init(baseOnDevice: Bool = false, applyOnConnect: Bool = false) {
        self.baseOnDevice = baseOnDevice
        self.applyOnConnect = applyOnConnect
    }

    /// Whether a connection should trigger a re-apply: asked for, and there is a pushed base to re-apply.
    public var reappliesOnConnect: Bool { applyOnConnect && baseOnDevice }
}
