import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// Turns whatever stopped a pairing into an `org.kblink1.Error.*` with a message a person can act on.
public enum PairingFailure {
    /// What was known about the pairing when it stopped.
    public struct Context: Sendable, Equatable {
        /// The keyboard's name (or its address when BlueZ has no name for it).
        public var name: String
        /// The keyboard's address, for the command to run again.
        public var address: BluetoothAddress
        /// The step the pairing was at.
        public var step: PairingStep
        /// The last prompt shown, if any: it tells a rejected passkey from a rejected PIN, and a keyboard that
        /// never answered from a code that was not typed in time.
        public var lastPrompt: PairingPromptKind?

        /// A context as given.
        public init(name: String, address: BluetoothAddress, step: PairingStep, lastPrompt: PairingPromptKind? = nil) {
            self.name = name
            self.address = address
            self.step = step
            self.lastPrompt = lastPrompt
        }
    }

    /// The error to answer `Pair` with (and to send in `PairingFinished`).
    /// - Parameters:
    ///   - error: what the flow threw.
    ///   - reason: set when the pairing was stopped from outside (it wins over `error`).
    public static func error(for error: Error, reason: PairingEndReason?, context: Context) -> DBusError {
        let name = context.name
        let retry = "run 'kblink pair \(context.address)' again"
        switch reason {
        case .canceledByUser?:
            return KBlinkError.canceled("pairing with \(name) was canceled; nothing was kept")
        case .callerLeft?:
            return KBlinkError.canceled(
                "pairing with \(name) was canceled: the program that asked for it left; nothing was kept")
        case .daemonStopping?:
            return KBlinkError.canceled("pairing with \(name) was canceled: kblinkd is stopping; nothing was kept")
        case .blueZStopped?:
            return KBlinkError.failed(
                "BlueZ stopped while pairing with \(name); nothing was kept: \(retry) once it is back (see 'systemctl status bluetooth')"
            )
        case nil:
            break
        }
        if error is CancellationError {
            return KBlinkError.canceled("pairing with \(name) was canceled; nothing was kept")
        }
        guard let error = error as? DBusError else {
            return KBlinkError.failed("pairing with \(name) failed: \(error)")
        }
        if error.name.rawValue.hasPrefix("org.kblink1.") { return error }
        switch (context.step, error.name) {
        case (.pairing, BlueZ.Error.authenticationFailed):
            if context.lastPrompt == .displayPinCode {
                return DBusError(
                    KBlinkError.authenticationFailed,
                    "\(name) rejected the PIN: type the 6 digits on the keyboard, then Enter; \(retry)")
            }
            return DBusError(
                KBlinkError.authenticationFailed,
                "\(name) rejected the passkey: type the 6 digits on the keyboard, then Enter; \(retry)")
        case (.pairing, BlueZ.Error.authenticationRejected):
            return DBusError(
                KBlinkError.authenticationFailed,
                "\(name) refused to pair: put it in pairing mode again (hold its Bluetooth or pairing key until it blinks), then \(retry)"
            )
        case (.pairing, BlueZ.Error.authenticationTimeout):
            if context.lastPrompt != nil {
                return DBusError(
                    KBlinkError.authenticationFailed,
                    "the code was not typed on \(name) in time: \(retry) and type the digits, then Enter")
            }
            return DBusError(
                KBlinkError.authenticationFailed,
                "\(name) did not answer: the keyboard is not in pairing mode; hold its Bluetooth or pairing key until it blinks, then \(retry)"
            )
        case (.pairing, BlueZ.Error.authenticationCanceled), (.pairing, BlueZ.Error.canceled):
            return KBlinkError.canceled(
                "pairing with \(name) was canceled by the keyboard or by BlueZ; nothing was kept: \(retry)")
        case (.pairing, BlueZ.Error.connectionAttemptFailed), (.pairing, BlueZ.Error.notReady):
            return KBlinkError.failed(
                "\(name) did not answer: is it switched on, near this computer, and in pairing mode? Then \(retry)")
        case (.pairing, BlueZ.Error.inProgress):
            return KBlinkError.busy(
                "BlueZ is already pairing \(name) for another program: finish or cancel it there first")
        case (.connecting, _):
            return KBlinkError.failed(
                "\(name) did not connect (\(Self.detail(error))); kblink undid what this pairing changed: wake the keyboard with a key press and \(retry)"
            )
        case (.trusting, _):
            return KBlinkError.failed(
                "\(name) could not be trusted (\(Self.detail(error))); kblink undid what this pairing changed: \(retry)"
            )
        case (_, .noReply), (_, .disconnected), (_, .serviceUnknown), (_, .nameHasNoOwner):
            return KBlinkError.failed(
                "BlueZ did not answer while pairing with \(name); nothing was kept: check 'systemctl status bluetooth', then \(retry)"
            )
        default:
            return KBlinkError.fromBlueZ(error, while: "pair with \(name)")
        }
    }

    private static func detail(_ error: DBusError) -> String {
        error.message.isEmpty ? error.name.rawValue : error.message
    }
}
