import Testing

@testable import KeyboardLinkSupport

/// `escapingTerminalControls`: text from outside (Bluetooth names, daemon messages) cannot drive the terminal.
@Suite struct TerminalSafeTextTests {
    @Test(
        "control characters become visible escapes; newlines, tabs and ordinary text stay",
        arguments: [
            ("Aula F87", "Aula F87"),
            ("VGN\u{1B}]0;pwned\u{07}\u{1B}[2K\rFAKE", "VGN^[]0;pwned^G^[[2K^MFAKE"),
            ("a\u{00}b\u{7F}c", "a^@b^?c"),
            ("C1 \u{9B}2J", "C1 \\u{9B}2J"),
            ("two\nlines\tand a tab", "two\nlines\tand a tab"),
            ("Clavier \u{E9}t\u{E9} 😀", "Clavier été 😀"),
            ("colour \u{1B}[32mgreen\u{1B}[0m", "colour ^[[32mgreen^[[0m"),
        ])
    func escapes(text: String, expected: String) {
        #expect(text.escapingTerminalControls == expected)
    }

    @Test(
        "keeping styles lets colour sequences through and nothing else",
        arguments: [
            ("\u{1B}[1mAula\u{1B}[0m", "\u{1B}[1mAula\u{1B}[0m"),
            ("\u{1B}[38;5;208morange\u{1B}[0m", "\u{1B}[38;5;208morange\u{1B}[0m"),
            ("\u{1B}[2J cleared", "^[[2J cleared"),
            ("\u{1B}[3F\u{1B}[J up", "^[[3F^[[J up"),
            ("\u{1B}]0;title\u{07}", "^[]0;title^G"),
            ("\u{1B}[1", "^[[1"),
            ("\u{1B}", "^["),
            ("\u{1B}[" + String(repeating: "1", count: 40) + "m", "^[[" + String(repeating: "1", count: 40) + "m"),
        ])
    func keepsStyles(text: String, expected: String) {
        #expect(text.escapingTerminalControls(keepingStyles: true) == expected)
    }
}
