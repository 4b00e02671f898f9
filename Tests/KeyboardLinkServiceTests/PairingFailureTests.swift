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
    ) -> KBlinkError {
        PairingFailure.error(
            for: error, reason: reason,
            context: PairingFailure.Context(name: "Keychron K3", address: address, step: step, lastPrompt: prompt))
    }

    static func bluez(_ name: ErrorName) -> DBusError { DBusError(name, "from BlueZ") }

    @Test(
        arguments: [
            (
                BlueZ.Error.authenticationFailed, PairingPrompt.Kind.displayPasskey,
                KBlinkError.Code.authenticationFailed,
                "rejected the passkey: type the 6 digits on the keyboard, then Enter"
            ),
            (BlueZ.Error.authenticationFailed, .displayPinCode, .authenticationFailed, "rejected the PIN"),
            (BlueZ.Error.authenticationRejected, nil, .authenticationFailed, "put it in pairing mode again"),
            (BlueZ.Error.authenticationTimeout, nil, .authenticationFailed, "not in pairing mode"),
            (BlueZ.Error.authenticationTimeout, .displayPasskey, .authenticationFailed, "not typed"),
            (BlueZ.Error.authenticationCanceled, nil, .canceled, "canceled by the keyboard or by BlueZ"),
            (BlueZ.Error.connectionAttemptFailed, nil, .failed, "in pairing mode?"),
            (BlueZ.Error.inProgress, nil, .busy, "already pairing"),
            (ErrorName.noReply, nil, .failed, "BlueZ did not answer"),
        ] as [(ErrorName, PairingPrompt.Kind?, KBlinkError.Code, String)])
    func bluezErrorsWhilePairing(
        bluez: ErrorName, prompt: PairingPrompt.Kind?, expected: KBlinkError.Code, advice: String
    ) {
        let error = Self.map(Self.bluez(bluez), prompt: prompt)
        #expect(error.code == expected)
        #expect(error.message.contains(advice), "\(error.message)")
        #expect(error.message.contains("Keychron K3"))
    }

    @Test(
        arguments: [
            (PairingEndReason.canceledByUser, KBlinkError.Code.canceled, "nothing was kept"),
            (.callerLeft, .canceled, "the program that asked for it left"),
            (.daemonStopping, .canceled, "kblinkd is stopping"),
            (.blueZStopped, .failed, "BlueZ stopped"),
        ])
    func outsideReasonsWinOverTheErrorTheyCaused(reason: PairingEndReason, expected: KBlinkError.Code, text: String) {
        for cause in [
            CancellationError() as Error, Self.bluez(.noReply), Self.bluez(BlueZ.Error.authenticationCanceled),
        ] {
            let error = Self.map(cause, reason: reason)
            #expect(error.code == expected)
            #expect(error.message.contains(text), "\(error.message)")
        }
    }

    @Test func failuresAfterPairingSayWhatWasUndone() {
        let connect = Self.map(Self.bluez(BlueZ.Error.failed), step: .connecting)
        #expect(connect.code == .failed)
        #expect(connect.message.contains("did not connect"))
        #expect(connect.message.contains("kblink pair DC:2C:26:00:00:03"))
        let trust = Self.map(Self.bluez(BlueZ.Error.failed), step: .trusting)
        #expect(trust.message.contains("could not be trusted"))
    }

    @Test func kblinkErrorsPassThroughAndOthersBecomeFailed() {
        let notFound = KBlinkError.notFound("no device answered")
        #expect(Self.map(notFound, step: .discovering) == notFound)
        #expect(Self.map(CancellationError()).code == .canceled)
        struct Odd: Error {}
        #expect(Self.map(Odd()).code == .failed)
        #expect(Self.map(Self.bluez(BlueZ.Error.notReady), step: .starting).message.contains("bluetoothctl power on"))
    }
}
