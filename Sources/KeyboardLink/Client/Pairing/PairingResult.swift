import KBlinkAPI
import KeyboardLinkDBus

/// How a pairing ended, as a client saw it.
public struct PairingResult: Sendable, Equatable {
    /// The keyboard's object path.
    public var keyboard: ObjectPath
    /// Nil when the keyboard is paired, trusted and connected; otherwise why not: kblinkd's error, or
    /// ``KBlinkError/Code/failed`` with the bus's message when kblinkd did not answer.
    public var error: KBlinkError?

    /// A result as given.
    public init(keyboard: ObjectPath, error: KBlinkError?) {
        self.keyboard = keyboard
        self.error = error
    }

    /// The pairing succeeded.
    public var ok: Bool { error == nil }

    /// Whether kblinkd sends `PairingFinished` before answering `Pair` with `error`: it does for every pairing
    /// that started, and not for calls refused up front (busy, bad or unsupported device, not allowed), nor when the
    /// answer is not kblinkd's (the bus's ``DBusError``, a canceled call).
    public static func daemonSendsFinished(before error: any Error) -> Bool {
        guard let error = error as? KBlinkError else { return false }
        switch error.code {
        case .busy, .invalidArgs, .notSupported, .accessDenied, .notAuthorized, .interactiveAuthorizationRequired:
            return false
        case .notFound, .notConnected, .canceled, .authenticationFailed, .locked, .failed, .conflict:
            return true
        }
    }
}
