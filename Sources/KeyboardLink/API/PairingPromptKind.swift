/// What a `PairingPrompt` asks the person to do (docs/dbus-api.md).
public enum PairingPromptKind: String, Sendable, Equatable, CaseIterable {
    /// Type the shown passkey on the keyboard, then Enter; `entered` counts the digits typed so far.
    case displayPasskey = "display-passkey"
    /// Type the shown PIN on the keyboard, then Enter (legacy keyboards).
    case displayPinCode = "display-pincode"
    /// Check that the keyboard shows the same 6 digits, and answer with `ConfirmPairing` (no answer is no).
    case confirmPasskey = "confirm-passkey"
    /// Allow the keyboard to pair without any code, and answer with `ConfirmPairing` (no answer is no).
    case authorize
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

    /// Whether the `Pair` caller must answer with `ConfirmPairing`.
    public var isQuestion: Bool { self == .confirmPasskey || self == .authorize }

    /// The question a client asks the person, answered yes or no.
    public func question(code: String) -> String {
        switch self {
        case .confirmPasskey: "Does the keyboard show \(code)?"
        case .authorize: "Allow the keyboard to pair without a code?"
        case .displayPasskey, .displayPinCode, .unlock: instruction(code: code)
        }
    }

    /// What the person has to do, in one sentence for the given code.
    public func instruction(code: String) -> String {
        switch self {
        case .displayPasskey: "Type \(code) on the keyboard, then press Enter."
        case .displayPinCode: "Type the PIN \(code) on the keyboard, then press Enter."
        case .confirmPasskey: "Check that the keyboard shows \(code)."
        case .authorize: "The keyboard asks to pair without a code."
        case .unlock: "Press the keyboard's unlock key."
        }
    }
}
