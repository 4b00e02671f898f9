/// A Bluetooth passkey: six decimal digits, 000000 to 999999 (Secure Simple Pairing and LE passkey entry).
package struct Passkey: Hashable, Sendable, CustomStringConvertible {
    /// The largest passkey.
    package static let maximum: UInt32 = 999_999

    /// The numeric value BlueZ sends (`DisplayPasskey`'s `u passkey`).
    package let value: UInt32

    /// Validates a passkey from BlueZ.
    /// - Throws: ``AgentArgumentError`` when the value has more than six digits.
    package init(_ value: UInt32) throws(AgentArgumentError) {
        guard value <= Self.maximum else {
            throw AgentArgumentError("a passkey is at most 999999, got \(value)")
        }
        self.value = value
    }

    /// The six digits, zero-padded, as a person types them: 4821 is `004821`.
    package var digits: String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }

    /// The six digits.
    package var description: String { digits }
}
