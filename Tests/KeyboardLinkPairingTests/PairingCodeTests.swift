import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkPairing

/// Passkeys and PINs: zero-padding, ranges, validation, random PINs.
@Suite struct PairingCodeTests {
    @Test(arguments: [
        (UInt32(0), "000000"), (4_821, "004821"), (123_456, "123456"), (999_999, "999999"), (7, "000007"),
    ])
    func passkeyIsZeroPaddedToSixDigits(value: UInt32, digits: String) throws {
        #expect(try Passkey(value).digits == digits)
    }

    @Test(arguments: [UInt32(1_000_000), 4_294_967_295])
    func passkeyAboveSixDigitsIsRefused(value: UInt32) {
        #expect(throws: AgentArgumentError.self) { try Passkey(value) }
    }

    @Test(arguments: ["0000", "123456", "1234567890123456", "abc-DEF"])
    func validPins(text: String) throws {
        #expect(try PinCode(text).text == text)
    }

    @Test(arguments: ["", "12345678901234567", "12 34", "12\u{7F}", "pïn"])
    func invalidPinsAreRefused(text: String) {
        #expect(throws: AgentArgumentError.self) { try PinCode(text) }
    }

    @Test func randomPinsAreSixDigitsAndVary() {
        var generator = SeededRandom(seed: 42)
        let pins = (0..<500).map { _ in PinCode.random(using: &generator) }
        #expect(pins.allSatisfy { $0.isSixDigits })
        #expect(Set(pins).count > 490, "500 draws from a million values almost never repeat")
        let leadingZero = pins.filter { $0.text.hasPrefix("0") }
        #expect(!leadingZero.isEmpty, "about one PIN in ten starts with 0 and keeps it")
        #expect(leadingZero.allSatisfy { $0.text.count == 6 })
    }

    @Test(arguments: [("123456", true), ("012345", true), ("12345", false), ("1234567", false), ("12345a", false)])
    func sixDigitPins(text: String, expected: Bool) throws {
        #expect(try PinCode(text).isSixDigits == expected)
    }
}
