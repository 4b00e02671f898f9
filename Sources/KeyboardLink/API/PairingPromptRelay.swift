/// A prompt to relay as a `PairingPrompt` signal: what to show and how far the typing got.
public struct PairingPromptRelay: Sendable, Equatable {
    /// What to show.
    public var kind: PairingPromptKind
    /// The code to show: a zero-padded passkey or a PIN.
    public var code: String
    /// Digits typed so far (display-passkey), else 0.
    public var entered: UInt16

    /// A prompt as given.
    public init(kind: PairingPromptKind, code: String, entered: UInt16 = 0) {
        self.kind = kind
        self.code = code
        self.entered = entered
    }
}
