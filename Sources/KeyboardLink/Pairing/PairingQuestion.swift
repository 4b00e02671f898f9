import KeyboardLinkDBus

/// A question relayed to the program that called `Pair` (a numeric comparison, or may this keyboard pair without a
/// code), waiting for its `ConfirmPairing`.
struct PairingQuestion {
    /// Tells this question from a later one about the same keyboard (its timeout must not answer the next).
    let id: UInt64
    /// The only connection whose answer counts.
    let caller: BusName
    /// Resumed once, with the answer (false: no, no answer in time, or the pairing ended).
    let continuation: CheckedContinuation<Bool, Never>
}
