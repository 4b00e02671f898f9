import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// The errors of the `org.kblink1` API. Each has its D-Bus name and carries a message a person can act on.
public enum KBlinkError {
    public static let invalidArgs = ErrorName(trusted: "org.kblink1.Error.InvalidArgs")
    public static let notFound = ErrorName(trusted: "org.kblink1.Error.NotFound")
    public static let notConnected = ErrorName(trusted: "org.kblink1.Error.NotConnected")
    public static let notSupported = ErrorName(trusted: "org.kblink1.Error.NotSupported")
    public static let busy = ErrorName(trusted: "org.kblink1.Error.Busy")
    public static let canceled = ErrorName(trusted: "org.kblink1.Error.Canceled")
    public static let authenticationFailed = ErrorName(trusted: "org.kblink1.Error.AuthenticationFailed")
    public static let locked = ErrorName(trusted: "org.kblink1.Error.Locked")
    public static let accessDenied = ErrorName(trusted: "org.kblink1.Error.AccessDenied")
    public static let failed = ErrorName(trusted: "org.kblink1.Error.Failed")

    public static func invalidArgs(_ message: String) -> DBusError { DBusError(invalidArgs, message) }
    public static func notFound(_ message: String) -> DBusError { DBusError(notFound, message) }
    public static func notConnected(_ message: String) -> DBusError { DBusError(notConnected, message) }
    public static func notSupported(_ message: String) -> DBusError { DBusError(notSupported, message) }
    public static func busy(_ message: String) -> DBusError { DBusError(busy, message) }
    public static func canceled(_ message: String) -> DBusError { DBusError(canceled, message) }
    public static func failed(_ message: String) -> DBusError { DBusError(failed, message) }

    /// Translates a BlueZ error into ours, with advice.
    /// - Parameter action: what we were doing, for the message ("connect to Aula F87").
    public static func fromBlueZ(_ error: Error, while action: String) -> DBusError {
        guard let error = error as? DBusError else {
            if error is CancellationError { return canceled("\(action): canceled") }
            return failed("\(action) failed: \(error)")
        }
        if error.name.rawValue.hasPrefix("org.kblink1.") { return error }
        switch error.name {
        case BlueZ.Error.notReady:
            return failed(
                "\(action) failed: the Bluetooth adapter is not ready; power it on with 'bluetoothctl power on'")
        case BlueZ.Error.inProgress:
            return busy("\(action) failed: BlueZ is already doing that; wait for it to finish")
        case BlueZ.Error.doesNotExist:
            return notFound("\(action) failed: BlueZ no longer knows the device; scan for it with 'kblink scan'")
        case BlueZ.Error.alreadyConnected:
            return DBusError(failed, "\(action): already connected")
        case BlueZ.Error.notConnected:
            return notConnected("\(action) failed: the keyboard is not connected; wake it by pressing a key")
        case BlueZ.Error.notSupported:
            return notSupported("\(action) failed: the keyboard does not support this")
        case BlueZ.Error.notPermitted, BlueZ.Error.notAuthorized, .accessDenied:
            return DBusError(accessDenied, "\(action) failed: permission denied (\(error.message))")
        case BlueZ.Error.authenticationFailed, BlueZ.Error.authenticationRejected:
            return DBusError(
                authenticationFailed,
                "\(action) failed: the keyboard rejected the passkey: type the 6 digits on the keyboard, then Enter")
        case BlueZ.Error.authenticationTimeout:
            return DBusError(
                authenticationFailed,
                "\(action) failed: the passkey was not typed in time; try again and type it, then Enter")
        case BlueZ.Error.authenticationCanceled, BlueZ.Error.canceled:
            return canceled("\(action): canceled")
        case BlueZ.Error.connectionAttemptFailed:
            return failed("\(action) failed: the keyboard did not answer; is it on, near, and in pairing mode?")
        case .serviceUnknown, .nameHasNoOwner:
            return failed("\(action) failed: BlueZ is not running; start it with 'systemctl start bluetooth'")
        case .noReply, .timedOut:
            return failed("\(action) failed: BlueZ did not answer in time")
        default:
            return failed("\(action) failed: \(error.message.isEmpty ? error.name.rawValue : error.message)")
        }
    }
}
