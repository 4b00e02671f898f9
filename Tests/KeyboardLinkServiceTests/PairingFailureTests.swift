import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkPairing
import Testing

@testable import KeyboardLinkService

/// BlueZ's pairing errors and outside interruptions become kblink errors a person can act on.
@Suite struct PairingFailureTests {
    static let address = BluetoothAddress(validating: "DC:2C:26:00:00:03")!

    static func map(
        _ error: Error, reason: PairingEndReason? = nil, step: PairingStep = .pairing, prompt: PairingPrompt.Kind? = nil
    ) -> DBusError {
        PairingFailure.error(
            for: error, reason: reason,
            context: PairingFailure.Context(name: "Keychron K3", address: address, step: step, lastPrompt: prompt))
    }

    static func bluez(_ name: ErrorName) -> DBusError { DBusError(name, "from BlueZ") }

    @Test(
        arguments: [
            (
                BlueZ.Error.authenticationFailed, PairingPrompt.Kind.displayPasskey, KBlinkError.authenticationFailed,
                "rejected the passkey: type the 6 digits on the keyboard, then Enter"
            ),
            (BlueZ.Error.authenticationFailed, .displayPinCode, KBlinkError.authenticationFailed, "rejected the PIN"),
            (BlueZ.Error.authenticationRejected, nil, KBlinkError.authenticationFailed, "put it in pairing mode again"),
            (BlueZ.Error.authenticationTimeout, nil, KBlinkError.authenticationFailed, "not in pairing mode"),
            (BlueZ.Error.authenticationTimeout, .displayPasskey, KBlinkError.authenticationFailed, "not typed"),
            (BlueZ.Error.authenticationCanceled, nil, KBlinkError.canceled, "canceled by the keyboard or by BlueZ"),
            (BlueZ.Error.connectionAttemptFailed, nil, KBlinkError.failed, "in pairing mode?"),
            (BlueZ.Error.inProgress, nil, KBlinkError.busy, "already pairing"),
            (ErrorName.noReply, nil, KBlinkError.failed, "BlueZ did not answer"),
        ] as [(ErrorName, PairingPrompt.Kind?, ErrorName, String)])
    func bluezErrorsWhilePairing(bluez: ErrorName, prompt: PairingPrompt.Kind?, expected: ErrorName, advice: String) {
        let error = Self.map(Self.bluez(bluez), prompt: prompt)
        #expect(error.name == expected)
        #expect(error.message.contains(advice), "\(error.message)")
        #expect(error.message.contains("Keychron K3"))
    }

    @Test(
        arguments: [
            (PairingEndReason.canceledByUser, KBlinkError.canceled, "nothing was kept"),
            (.callerLeft, KBlinkError.canceled, "the program that asked for it left"),
            (.daemonStopping, KBlinkError.canceled, "kblinkd is stopping"),
            (.blueZStopped, KBlinkError.failed, "BlueZ stopped"),
        ])
    func outsideReasonsWinOverTheErrorTheyCaused(reason: PairingEndReason, expected: ErrorName, text: String) {
        for cause in [
            CancellationError() as Error, Self.bluez(.noReply), Self.bluez(BlueZ.Error.authenticationCanceled),
        ] {
            let error = Self.map(cause, reason: reason)
            #expect(error.name == expected)
            #expect(error.message.contains(text), "\(error.message)")
        }
    }

    @Test func failuresAfterPairingSayWhatWasUndone() {
        let connect = Self.map(Self.bluez(BlueZ.Error.failed), step: .connecting)
        #expect(connect.name == KBlinkError.failed)
        #expect(connect.message.contains("did not connect"))
        #expect(connect.message.contains("kblink pair DC:2C:26:00:00:03"))
        let trust = Self.map(Self.bluez(BlueZ.Error.failed), step: .trusting)
        #expect(trust.message.contains("could not be trusted"))
    }

    @Test func kblinkErrorsPassThroughAndOthersBecomeFailed() {
        let notFound = KBlinkError.notFound("no device answered")
        #expect(Self.map(notFound, step: .discovering) == notFound)
        #expect(Self.map(CancellationError()).name == KBlinkError.canceled)
        struct Odd: Error {}
        #expect(Self.map(Odd()).name == KBlinkError.failed)
        #expect(Self.map(Self.bluez(BlueZ.Error.notReady), step: .starting).message.contains("bluetoothctl power on"))
    }
}
