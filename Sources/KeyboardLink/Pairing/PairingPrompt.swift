/// What our agent asks the person pairing a keyboard to see or do, as the pairing domain knows it. The service
/// publishes it as the `PairingPrompt` signal (`Service/Pairing/PairingEventPublisher.swift`).
package struct PairingPrompt: Sendable, Equatable {
    /// What the prompt asks for.
    package enum Kind: Sendable, Equatable, CaseIterable {
        /// Type the shown passkey on the keyboard, then Enter; ``PairingPrompt/entered`` counts the digits typed.
        case displayPasskey
        /// Type the shown PIN on the keyboard, then Enter (legacy keyboards).
        case displayPinCode
        /// Check that the keyboard shows the same 6 digits and answer yes or no.
        case confirmPasskey
        /// Allow the keyboard to pair without any code, yes or no.
        case authorize

        /// Whether the person must answer (yes or no) before the pairing goes on.
        package var isQuestion: Bool { self == .confirmPasskey || self == .authorize }
    }

    /// What the prompt asks for.
    package var kind: Kind
    /// The code to show: a zero-padded passkey or a PIN; empty for ``Kind/authorize``.
    package var code: String
    /// Digits typed so far (``Kind/displayPasskey``), else 0.
    package var entered: UInt16

    /// A prompt as given.
    package init(kind: Kind, code: String, entered: UInt16 = 0) {
        self.kind = kind
        self.code = code
        self.entered = entered
    }
}
