import Testing

@testable import KeyboardLinkSupport

/// `containsText(_:)` and `replacingEvery(_:with:)`, kblink's substitutes for `_StringProcessing`'s algorithms.
@Suite struct StringSearchTests {
    @Test(arguments: [
        ("org.bluez.Error.Failed: not connected", "not connected", true), ("abc", "", true), ("", "", true),
        ("abc", "abcd", false), ("aab", "ab", true), ("é😀x", "😀x", true), ("xyz", "yx", false),
        (#"{"schemaVersion": 1}"#, #""schemaVersion""#, true),
    ])
    func contains(text: String, other: String, expected: Bool) {
        #expect(text.containsText(other) == expected)
    }

    @Test(arguments: [
        ("KC_A", "KC_", "", "A"), ("it's", "'", "'\\''", "it'\\''s"), ("aaa", "aa", "b", "ba"), ("abc", "", "x", "abc"),
        ("''", "'", "\"", "\"\""), ("no match", "z", "y", "no match"), ("é-é", "é", "e", "e-e"),
    ])
    func replace(text: String, target: String, replacement: String, expected: String) {
        #expect(text.replacingEvery(target, with: replacement) == expected)
    }
}
