/// What a `PairingPrompt` asks the person to do (docs/dbus-api.md).
public enum PairingPromptKind: String, Sendable, Equatable, CaseIterable {
    /// Type the shown passkey on the keyboard, then Enter; `entered` counts the digits typed so far.
    case displayPasskey = "display-passkey"
    /// Type the shown PIN on the keyboard, then Enter (legacy keyboards).
    case displayPinCode = "display-pincode"
    /// Check that the keyboard shows the same 6 digits (kblinkd accepts for a keyboard it is pairing).
    case confirmPasskey = "confirm-passkey"
    /// Press the keyboard's unlock key (ZMK Studio).
    case unlock

    /// Parses the wire text of a prompt kind.
    /// - Throws: ``PairingProtocolError`` naming the kinds that exist.
    public init(wire text: String) throws(PairingProtocolError) {
        guard let kind = PairingPromptKind(rawValue: text) else {
            throw PairingProtocolError(
                "unknown prompt kind \"\(text.prefix(40))\"; expected one of "
                    + Self.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = kind
    }

    /// What the person has to do, in one sentence for the given code.
    public func instruction(code: String) -> String {
        switch self {
        case .displayPasskey: "Type \(code) on the keyboard, then press Enter."
        case .displayPinCode: "Type the PIN \(code) on the keyboard, then press Enter."
        case .confirmPasskey: "Check that the keyboard shows \(code)."
        case .unlock: "Press the keyboard's unlock key."
        }
    }
}
