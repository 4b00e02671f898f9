import KeyboardLinkBlueZ

/// What our `org.bluez.Agent1` answers, decided without side effects so it can be tested on its own.
///
/// The agent only speaks for pairings kblinkd started: any request about another device is rejected, so a
/// desktop's own agent (the default one) keeps handling everything else.
package enum PairingAgentPolicy {
    /// The profiles a keyboard being paired through kblinkd may use before it is trusted: HID and HOGP.
    package static let authorizedServices: Set<BluetoothUUID> = [.humanInterfaceDevice, .hidOverGATT]

    /// Why requests about other devices are refused.
    static let notOurs =
        "kblinkd only answers for keyboards it is pairing itself; pair with 'kblink pair' or use your desktop's Bluetooth settings"

    /// Decides the answer to `request`.
    /// - Parameters:
    ///   - pairingThroughUs: kblinkd is pairing the device the request is about.
    ///   - newPin: makes the PIN for `RequestPinCode` (random in the daemon, fixed in tests).
    package static func decide(
        _ request: AgentRequest, pairingThroughUs: Bool, newPin: () -> PinCode
    ) -> AgentDecision {
        switch request {
        case .release, .cancel:
            return .accept([], prompt: nil)
        case .requestPasskey:
            // Our capability is KeyboardDisplay, so BlueZ should not ask; when it does we cannot type on the
            // keyboard for the person.
            return .reject(
                "kblinkd cannot type a passkey for the keyboard: it shows the passkey to type on the keyboard instead")
        case .displayPasskey, .requestPinCode, .displayPinCode, .requestConfirmation, .requestAuthorization,
            .authorizeService:
            guard pairingThroughUs else { return .reject(notOurs) }
            return decideForOurPairing(request, newPin: newPin)
        }
    }

    /// The answer to a request about a device kblinkd is pairing.
    private static func decideForOurPairing(_ request: AgentRequest, newPin: () -> PinCode) -> AgentDecision {
        switch request {
        case .displayPasskey(_, let passkey, let entered):
            return .accept(
                [], prompt: PairingPrompt(kind: .displayPasskey, code: passkey.digits, entered: min(entered, 6)))
        case .requestPinCode:
            let pin = newPin()
            return .accept([.string(pin.text)], prompt: PairingPrompt(kind: .displayPinCode, code: pin.text))
        case .displayPinCode(_, let pin):
            return .accept([], prompt: PairingPrompt(kind: .displayPinCode, code: pin.text))
        case .requestConfirmation(_, let passkey):
            // A numeric comparison: only the person can tell whether the keyboard shows the same digits (a device
            // in the middle would show others), so it is asked, never accepted on their behalf.
            return .ask(PairingPrompt(kind: .confirmPasskey, code: passkey.digits))
        case .requestAuthorization:
            // Pairing without any code (just works): the person says whether this keyboard may pair.
            return .ask(PairingPrompt(kind: .authorize, code: ""))
        case .authorizeService(_, let uuidText):
            guard let uuid = BluetoothUUID(validating: uuidText), authorizedServices.contains(uuid) else {
                return .reject(
                    "kblinkd only allows HID (0x1124) and HOGP (0x1812) for a keyboard it is pairing, not \(uuidText.prefix(40))"
                )
            }
            return .accept([], prompt: nil)
        case .release, .cancel, .requestPasskey:
            // Answered by decide(_:pairingThroughUs:newPin:) before it gets here.
            return .accept([], prompt: nil)
        }
    }
}
