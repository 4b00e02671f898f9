import KeyboardLinkDBus

/// An error of the `org.kblink1` API: what went wrong, as a ``Code`` with its D-Bus error name, and a message a
/// person can act on.
///
/// kblinkd's handlers throw it and the D-Bus binding answers with its name (``DBusErrorRepresentable``); on the
/// client side a contract call whose reply carries one of these names throws it again, so callers match the code:
///
/// ```swift
/// do {
///     try await manager.call(KBlinkContract.Manager.cancelPairing, device)
/// } catch let error as KBlinkError where error.code == .notFound {
///     // no pairing of that device runs
/// }
/// ```
///
/// An error with any other name (the bus's, a peer's) stays a ``DBusError``.
public struct KBlinkError: Error, Sendable, Equatable, CustomStringConvertible, DBusErrorRepresentable {
    /// What went wrong, as a caller decides what to do next. Each code is one D-Bus error name.
    public enum Code: Sendable, Hashable, CaseIterable {
        /// An argument is wrong: a malformed address or value, a key, zone or layer the keyboard does not have, a
        /// name that matches several keyboards. Calling again with the same arguments fails the same way.
        case invalidArgs
        /// What the call names does not exist (any more): no such keyboard, macro, layout, pairing or question.
        case notFound
        /// The keyboard is not connected (asleep, or the link dropped): wake it by pressing a key, then retry.
        case notConnected
        /// The keyboard or its firmware cannot do this (no driver, not a keyboard, nothing to undo).
        case notSupported
        /// Something else is in progress on that keyboard (a pairing, a push, a pull): wait for it, then retry.
        case busy
        /// The operation was canceled (by the person, the keyboard, BlueZ, or kblinkd stopping); nothing was kept.
        case canceled
        /// Pairing was refused: a wrong or late passkey or PIN, or the keyboard said no.
        case authenticationFailed
        /// The keyboard is locked (a ZMK Studio keyboard): press its unlock key, then retry.
        case locked
        /// Another caller owns what this call would change (a pairing started by another program), or BlueZ refused
        /// the permission.
        case accessDenied
        /// The operation failed; the message says why and what to do.
        case failed
        /// A push found keys that both the draft and the keyboard changed since the base, differently.
        case conflict
        /// polkit (or, without it, the group rule) refused the action the call needs.
        case notAuthorized
        /// polkit would ask for a password and the call did not allow it (the standard D-Bus error): call again with
        /// `ALLOW_INTERACTIVE_AUTHORIZATION`.
        case interactiveAuthorizationRequired

        /// The D-Bus error name, such as `org.kblink1.Error.NotFound`.
        public var errorName: ErrorName {
            switch self {
            case .invalidArgs: "org.kblink1.Error.InvalidArgs"
            case .notFound: "org.kblink1.Error.NotFound"
            case .notConnected: "org.kblink1.Error.NotConnected"
            case .notSupported: "org.kblink1.Error.NotSupported"
            case .busy: "org.kblink1.Error.Busy"
            case .canceled: "org.kblink1.Error.Canceled"
            case .authenticationFailed: "org.kblink1.Error.AuthenticationFailed"
            case .locked: "org.kblink1.Error.Locked"
            case .accessDenied: "org.kblink1.Error.AccessDenied"
            case .failed: "org.kblink1.Error.Failed"
            case .conflict: "org.kblink1.Error.Conflict"
            case .notAuthorized: "org.kblink1.Error.NotAuthorized"
            case .interactiveAuthorizationRequired: "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired"
            }
        }

        /// The code whose D-Bus error name is `name`; nil for a name that is not the API's.
        public init?(_ name: ErrorName) {
            guard let code = Self.byName[name.rawValue] else { return nil }
            self = code
        }

        private static let byName: [String: Code] = Dictionary(
            uniqueKeysWithValues: allCases.map { ($0.errorName.rawValue, $0) })
    }

    /// What went wrong.
    public var code: Code
    /// What happened and what to do, for people.
    public var message: String

    /// An error with its code and message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The API's error that `error` (received over D-Bus) carries; nil when its name is not one of the API's.
    public init?(_ error: DBusError) {
        guard let code = Code(error.name) else { return nil }
        self.init(code, error.message)
    }

    /// The error as it travels: its code's name and its message.
    public var dbusError: DBusError { DBusError(code.errorName, message) }

    /// The error name and the message, as ``DBusError`` prints.
    public var description: String { "\(code.errorName.rawValue): \(message)" }
}

extension KBlinkError {
    /// An ``Code/invalidArgs`` error.
    public static func invalidArgs(_ message: String) -> KBlinkError { KBlinkError(.invalidArgs, message) }
    /// A ``Code/notFound`` error.
    public static func notFound(_ message: String) -> KBlinkError { KBlinkError(.notFound, message) }
    /// A ``Code/notConnected`` error.
    public static func notConnected(_ message: String) -> KBlinkError { KBlinkError(.notConnected, message) }
    /// A ``Code/notSupported`` error.
    public static func notSupported(_ message: String) -> KBlinkError { KBlinkError(.notSupported, message) }
    /// A ``Code/busy`` error.
    public static func busy(_ message: String) -> KBlinkError { KBlinkError(.busy, message) }
    /// A ``Code/canceled`` error.
    public static func canceled(_ message: String) -> KBlinkError { KBlinkError(.canceled, message) }
    /// An ``Code/authenticationFailed`` error.
    public static func authenticationFailed(_ message: String) -> KBlinkError {
        KBlinkError(.authenticationFailed, message)
    }
    /// A ``Code/locked`` error.
    public static func locked(_ message: String) -> KBlinkError { KBlinkError(.locked, message) }
    /// An ``Code/accessDenied`` error.
    public static func accessDenied(_ message: String) -> KBlinkError { KBlinkError(.accessDenied, message) }
    /// A ``Code/failed`` error.
    public static func failed(_ message: String) -> KBlinkError { KBlinkError(.failed, message) }
    /// A ``Code/conflict`` error.
    public static func conflict(_ message: String) -> KBlinkError { KBlinkError(.conflict, message) }
    /// A ``Code/notAuthorized`` error.
    public static func notAuthorized(_ message: String) -> KBlinkError { KBlinkError(.notAuthorized, message) }
}
