import KBlinkAPI

/// What a client sees of one pairing, in order: prompts, then the end.
public enum PairingEvent: Sendable, Equatable {
    /// Something to show: a passkey (with the digits typed so far), a PIN, a passkey to confirm.
    case prompt(PairingPromptRelay)
    /// The pairing is over; always the last event.
    case ended(PairingResult)
}
