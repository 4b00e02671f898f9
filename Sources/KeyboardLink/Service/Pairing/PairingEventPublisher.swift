import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkPairing
import KeyboardLinkSupport

/// Publishes what the ``PairingCoordinator`` raises as the Manager's `PairingPrompt` and `PairingFinished` signals
/// (docs/pairing.md): the pairing domain knows keyboards by address and failures as ``PairingFailure``; the
/// contract carries object paths and `org.kblink1.Error.*` names.
struct PairingEventPublisher: Sendable {
    let connection: BusConnection
    let log: @Sendable (LogLevel, String) -> Void

    /// Emits the signal for `event` (to its caller alone when there is one); a failure to send is not the pairing's.
    func publish(_ event: PairingCoordinator.Event) async {
        switch event {
        case .prompt(let prompt, let address, let caller):
            let signal = PairingPromptSignal(keyboard: KBlink.keyboardPath(address), prompt: Self.relay(prompt))
            try? await connection.emit(
                KBlinkContract.Manager.pairingPromptSignal, at: KBlink.managerPath, signal, to: caller)
        case .finished(let address, let name, let failure, let caller):
            let signal: PairingFinishedSignal
            if let failure {
                let error = failure.kblinkError
                log(.notice, "pairing \(address) failed: \(error.message)")
                signal = PairingFinishedSignal(
                    keyboard: KBlink.keyboardPath(address), ok: false, error: error.code.errorName.rawValue,
                    message: error.message)
            } else {
                signal = PairingFinishedSignal(
                    keyboard: KBlink.keyboardPath(address), ok: true, error: "",
                    message: "\(name) is paired, trusted and connected")
            }
            try? await connection.emit(
                KBlinkContract.Manager.pairingFinishedSignal, at: KBlink.managerPath, signal, to: caller)
        }
    }

    /// A prompt as the contract carries it.
    static func relay(_ prompt: PairingPrompt) -> PairingPromptRelay {
        PairingPromptRelay(kind: kind(prompt.kind), code: prompt.code, entered: prompt.entered)
    }

    /// A prompt's kind as the contract names it.
    static func kind(_ kind: PairingPrompt.Kind) -> PairingPromptKind {
        switch kind {
        case .displayPasskey: .displayPasskey
        case .displayPinCode: .displayPinCode
        case .confirmPasskey: .confirmPasskey
        case .authorize: .authorize
        }
    }
}
