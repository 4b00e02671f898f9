/// A legacy pairing PIN code: 1 to 16 printable ASCII characters (the Bluetooth PIN is at most 16 bytes).
///
/// kblinkd generates 6 random digits for a keyboard that asks `RequestPinCode`; `DisplayPinCode` may carry any
/// PIN BlueZ chose.
package struct PinCode: Hashable, Sendable, CustomStringConvertible {
    /// The PIN as typed.
    package let text: String

    /// Validates a PIN.
    /// - Throws: ``AgentArgumentError`` when it is empty, longer than 16 characters or not printable ASCII.
    package init(_ text: String) throws(AgentArgumentError) {
        guard !text.isEmpty, text.utf8.count <= 16 else {
            throw AgentArgumentError("a PIN has 1 to 16 characters, got \(text.utf8.count)")
        }
        guard text.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw AgentArgumentError("a PIN holds printable ASCII characters only (no spaces)")
        }
        self.text = text
    }

    private init(trusted text: String) {
        self.text = text
    }

    /// Six random decimal digits, zero-padded (000000 to 999999).
    package static func random<G: RandomNumberGenerator>(using generator: inout G) -> PinCode {
        let value = UInt32.random(in: 0...Passkey.maximum, using: &generator)
        let text = String(value)
        return PinCode(trusted: String(repeating: "0", count: 6 - text.count) + text)
    }

    /// Six random decimal digits from the system's random source.
    package static func random() -> PinCode {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// Whether the PIN is exactly six decimal digits (what a keyboard's number row can type).
    package var isSixDigits: Bool {
        text.utf8.count == 6 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The PIN.
    package var description: String { text }
}
