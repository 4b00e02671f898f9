import KBlinkAPI
import KeyboardLinkDBus

/// How a pairing ended, as a client saw it.
public struct PairingResult: Sendable, Equatable {
    /// The keyboard's object path.
    public var keyboard: ObjectPath
    /// Nil when the keyboard is paired, trusted and connected.
    public var error: DBusError?

    /// A result as given.
    public init(keyboard: ObjectPath, error: DBusError?) {
        self.keyboard = keyboard
        self.error = error
    }

    /// The pairing succeeded.
    public var ok: Bool { error == nil }

    /// Whether kblinkd sends `PairingFinished` before answering `Pair` with `error`: it does for every pairing
    /// that started, and not for calls refused up front (busy, bad or unsupported device, not allowed).
    public static func daemonSendsFinished(before error: DBusError) -> Bool {
        switch error.name {
        case KBlinkError.busy, KBlinkError.invalidArgs, KBlinkError.notSupported, KBlinkError.accessDenied:
            false
        default:
            !error.name.rawValue.hasPrefix("org.freedesktop.DBus.Error.")
        }
    }
}
