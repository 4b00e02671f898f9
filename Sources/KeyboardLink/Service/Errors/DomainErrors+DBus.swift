import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkFirmware
import KeyboardLinkKeymap
import KeyboardLinkPairing

// Every domain error becomes an `org.kblink1.Error.*` here, and only here: the domains know nothing of D-Bus
// error names. BlueZ's errors are translated here too, with advice.

extension KeymapError {
    /// The `org.kblink1.Error.*` error a D-Bus caller gets, with the model's message.
    ///
    /// Follows `category`, except that a key or zone the keyboard's layout does not have is `InvalidArgs`: over
    /// D-Bus both are arguments the caller got wrong (with a suggestion), not objects that went missing.
    package var kblinkError: KBlinkError {
        switch self {
        case .unknownKey, .zoneNotInLayout:
            return KBlinkError.invalidArgs(description)
        default:
            break
        }
        switch category {
        case .invalidArgs: return KBlinkError.invalidArgs(description)
        case .notFound: return KBlinkError.notFound(description)
        case .notSupported: return KBlinkError.notSupported(description)
        case .failed: return KBlinkError.failed(description)
        }
    }
}

extension DriverError {
    /// The `org.kblink1.Error.*` equivalent.
    package var kblinkError: KBlinkError {
        switch self {
        case .locked(let text): KBlinkError.locked(text)
        case .notSupported(let text): KBlinkError.notSupported(text)
        case .notConnected(let text): KBlinkError.notConnected(text)
        case .failed(let text): KBlinkError.failed(text)
        case .conflict(let text): KBlinkError.conflict(text)
        }
    }
}

extension DriverError {
    /// Whether the keyboard asked to be unlocked.
    var isLocked: Bool {
        if case .locked = self { return true }
        return false
    }

    /// The `org.kblink1.Error.*` equivalent with another message.
    func kblinkError(message: String) -> KBlinkError {
        KBlinkError(kblinkError.code, message)
    }
}

extension FirmwareReadError {
    /// What `RefreshInfo()` answers when the reads fail: `NotConnected`, naming the keyboard and what is kept.
    /// - Parameters:
    ///   - alias: the keyboard's name.
    ///   - cached: what is shown instead of fresh information ("kept the information read 2 days ago").
    func kblinkError(alias: String, cached: String) -> KBlinkError {
        switch kind {
        case .notConnected:
            KBlinkError.notConnected("\(alias) is not connected (\(cause.advice)): \(cached)")
        case .disconnectedDuringRead:
            KBlinkError.notConnected(
                "\(alias) disconnected while its information was being read: \(cached); wake it by pressing a key, then refresh again"
            )
        }
    }
}

extension PairingFailure {
    /// The `org.kblink1.Error.*` error `Pair` (and `PairingFinished`) answers with, and what to do.
    package var kblinkError: KBlinkError {
        switch self {
        case .alreadyPairing(let name, let step):
            KBlinkError.busy(
                "\(name) is being paired already (\(step.rawValue)): wait for it to end, or cancel it with Ctrl-C in the 'kblink pair' that started it"
            )
        case .notPairing(let address):
            KBlinkError.notFound("no pairing of \(address) is running")
        case .noQuestion(let address):
            KBlinkError.notFound(
                "kblinkd is not waiting for an answer about \(address) (it was answered, or timed out)")
        case .notThePairCaller(let address):
            KBlinkError.accessDenied("only the program that called Pair for \(address) may answer its questions")
        case .notThePairCallerToCancel(let address):
            KBlinkError.accessDenied(
                "only the program that called Pair for \(address), or root, may cancel its pairing")
        case .blueZNotRunning(let action?):
            KBlinkError.failed("cannot \(action): BlueZ is not running; start it with 'systemctl start bluetooth'")
        case .blueZNotRunning(nil):
            KBlinkError.failed("BlueZ is not running; start it with 'systemctl start bluetooth'")
        case .noAdapter(let address):
            KBlinkError.failed("cannot look for \(address): no Bluetooth adapter is present")
        case .adapterOff(let address):
            KBlinkError.failed(
                "cannot look for \(address): the Bluetooth adapter is off; power it on with 'bluetoothctl power on'")
        case .unknownDevice(let address):
            KBlinkError.notFound("BlueZ does not know \(address)")
        case .notAKeyboard(let name, let address):
            KBlinkError.notSupported(
                "\(name) (\(address)) is not a keyboard: pair it with your desktop's Bluetooth settings or bluetoothctl"
            )
        case .notFound(let address, let timeout):
            KBlinkError.notFound(
                "no device \(address) answered within \(timeout.components.seconds) s: put the keyboard in pairing mode (hold its Bluetooth or pairing key until it blinks) and run 'kblink pair \(address)' again"
            )
        case .unsettled(let name, let address, let now):
            KBlinkError.failed(
                "\(name) did not end paired, trusted and connected (paired \(now.paired), trusted \(now.trusted), connected \(now.connected)); kblink undid what this pairing changed: run 'kblink pair \(address)' again"
            )
        case .blueZ(let error, let action):
            KBlinkError.fromBlueZ(error, while: action)
        case .ended(let error, let reason, let context):
            Self.error(for: error, reason: reason, context: context)
        }
    }

    /// The error to answer `Pair` with (and to send in `PairingFinished`) when a pairing ended.
    /// - Parameters:
    ///   - error: what the flow threw.
    ///   - reason: set when the pairing was stopped from outside (it wins over `error`).
    package static func error(for error: Error, reason: PairingEndReason?, context: Context) -> KBlinkError {
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
        if let failure = error as? PairingFailure {
            return failure.kblinkError
        }
        if let error = error as? KBlinkError { return error }
        guard let error = error as? DBusError else {
            return KBlinkError.failed("pairing with \(name) failed: \(error)")
        }
        if let error = KBlinkError(error) { return error }
        if context.step == .pairing, context.lastPrompt?.isQuestion == true,
            [BlueZ.Error.authenticationRejected, BlueZ.Error.authenticationFailed].contains(error.name)
        {
            return KBlinkError.authenticationFailed(
                "the pairing with \(name) was refused: the answer was no (or none came in time); \(retry) and answer y if the keyboard shows the same number"
            )
        }
        switch (context.step, error.name) {
        case (.pairing, BlueZ.Error.authenticationFailed):
            if context.lastPrompt == .displayPinCode {
                return KBlinkError.authenticationFailed(
                    "\(name) rejected the PIN: type the 6 digits on the keyboard, then Enter; \(retry)")
            }
            return KBlinkError.authenticationFailed(
                "\(name) rejected the passkey: type the 6 digits on the keyboard, then Enter; \(retry)")
        case (.pairing, BlueZ.Error.authenticationRejected):
            return KBlinkError.authenticationFailed(
                "\(name) refused to pair: put it in pairing mode again (hold its Bluetooth or pairing key until it blinks), then \(retry)"
            )
        case (.pairing, BlueZ.Error.authenticationTimeout):
            if context.lastPrompt != nil {
                return KBlinkError.authenticationFailed(
                    "the code was not typed on \(name) in time: \(retry) and type the digits, then Enter")
            }
            return KBlinkError.authenticationFailed(
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

extension KBlinkError {
    /// Translates a BlueZ error into ours, with advice.
    /// - Parameter action: what we were doing, for the message ("connect to Aula F87").
    package static func fromBlueZ(_ error: Error, while action: String) -> KBlinkError {
        if let error = error as? KBlinkError { return error }
        guard let error = error as? DBusError else {
            if error is CancellationError { return canceled("\(action): canceled") }
            return failed("\(action) failed: \(error)")
        }
        if let error = KBlinkError(error) { return error }
        switch error.name {
        case BlueZ.Error.notReady:
            return failed(
                "\(action) failed: the Bluetooth adapter is not ready; power it on with 'bluetoothctl power on'")
        case BlueZ.Error.inProgress:
            return busy("\(action) failed: BlueZ is already doing that; wait for it to finish")
        case BlueZ.Error.doesNotExist:
            return notFound("\(action) failed: BlueZ no longer knows the device; scan for it with 'kblink scan'")
        case BlueZ.Error.alreadyConnected:
            return failed("\(action): already connected")
        case BlueZ.Error.notConnected:
            return notConnected("\(action) failed: the keyboard is not connected; wake it by pressing a key")
        case BlueZ.Error.notSupported:
            return notSupported("\(action) failed: the keyboard does not support this")
        case BlueZ.Error.notPermitted, BlueZ.Error.notAuthorized, .accessDenied:
            return accessDenied("\(action) failed: permission denied (\(error.message))")
        case BlueZ.Error.authenticationFailed, BlueZ.Error.authenticationRejected:
            return authenticationFailed(
                "\(action) failed: the keyboard rejected the passkey: type the 6 digits on the keyboard, then Enter")
        case BlueZ.Error.authenticationTimeout:
            return authenticationFailed(
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

extension VIADriverLinks {
    /// What `Push` and `Pull` answer when a keyboard's VIA raw HID interface could not be opened: `Failed`, with
    /// what to check.
    /// - Parameters:
    ///   - alias: the keyboard's name.
    ///   - cause: what opening it threw.
    static func openFailure(alias: String, cause: any Error) -> KBlinkError {
        if let refusal = cause as? HIDRawRefusal {
            return KBlinkError.failed("will not use the VIA interface of \(alias): \(refusal)")
        }
        return KBlinkError.failed(
            "cannot open the VIA interface of \(alias): \(cause); check the permissions of /dev/hidraw*")
    }
}

extension DriverPush.Failure {
    /// What `Push` answers when the keyboard refused: the driver's error, with what was written and rolled back.
    var kblinkError: KBlinkError {
        error.kblinkError(message: description)
    }
}

extension DriverError {
    /// What `Pull` answers when the keymap could not be read: the driver's error, with what to do.
    /// - Parameter alias: the keyboard's name.
    func pullError(alias: String) -> KBlinkError {
        kblinkError(message: Self.pullFailureMessage(self, alias: alias))
    }

    /// What a failed read says: the driver's message and what to do.
    private static func pullFailureMessage(_ error: DriverError, alias: String) -> String {
        switch error {
        case .locked(let message):
            "\(alias) stayed locked: \(message); press its Studio unlock key, then pull again (the draft is unchanged)"
        case .notConnected(let message):
            "\(message); wake \(alias) by pressing a key, then pull again (the draft is unchanged)"
        case .notSupported(let message), .failed(let message), .conflict(let message):
            "cannot read the keymap of \(alias): \(message); the draft is unchanged"
        }
    }
}

extension KeymapError {
    /// What an edit answers when its profile could not be saved: `Failed`, the change not made.
    var notSavedError: KBlinkError {
        KBlinkError.failed(
            "the change was not made because the profile could not be saved: \(description); "
                + "the previous profile is intact")
    }
}
