import KeyboardLinkDBus

/// The errors of the `org.kblink1` API. Each has its D-Bus name and carries a message a person can act on.
public enum KBlinkError {
    public static let invalidArgs: ErrorName = "org.kblink1.Error.InvalidArgs"
    public static let notFound: ErrorName = "org.kblink1.Error.NotFound"
    public static let notConnected: ErrorName = "org.kblink1.Error.NotConnected"
    public static let notSupported: ErrorName = "org.kblink1.Error.NotSupported"
    public static let busy: ErrorName = "org.kblink1.Error.Busy"
    public static let canceled: ErrorName = "org.kblink1.Error.Canceled"
    public static let authenticationFailed: ErrorName = "org.kblink1.Error.AuthenticationFailed"
    public static let locked: ErrorName = "org.kblink1.Error.Locked"
    public static let accessDenied: ErrorName = "org.kblink1.Error.AccessDenied"
    public static let failed: ErrorName = "org.kblink1.Error.Failed"
    /// A push found keys that both the draft and the keyboard changed since the base, differently.
    public static let conflict: ErrorName = "org.kblink1.Error.Conflict"
    /// polkit (or, without it, the group rule) refused the action the call needs.
    public static let notAuthorized: ErrorName = "org.kblink1.Error.NotAuthorized"
    /// polkit would ask for a password and the call did not allow it (the standard D-Bus error).
    public static let interactiveAuthorizationRequired: ErrorName =
        "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired"

    public static func invalidArgs(_ message: String) -> DBusError { DBusError(invalidArgs, message) }
    public static func notFound(_ message: String) -> DBusError { DBusError(notFound, message) }
    public static func notConnected(_ message: String) -> DBusError { DBusError(notConnected, message) }
    public static func notSupported(_ message: String) -> DBusError { DBusError(notSupported, message) }
    public static func busy(_ message: String) -> DBusError { DBusError(busy, message) }
    public static func canceled(_ message: String) -> DBusError { DBusError(canceled, message) }
    public static func failed(_ message: String) -> DBusError { DBusError(failed, message) }
    public static func conflict(_ message: String) -> DBusError { DBusError(conflict, message) }
}
