import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymap

@Suite("Macro text syntax")
struct MacroSyntaxTests {
    static let shift = HIDUsage.keyboard(0xE1)

    @Test("the documented example parses to the expected steps")
    func example() throws {
        let macro = try Macro(parsing: "ctrl+c, delay 50, text 'hello', tap enter, press shift, release shift")
        #expect(
            macro.steps == [
                .tap(KeyPress(.keyboard(0x06), modifiers: .leftControl)),
                .delay(milliseconds: 50),
                .text("hello"),
                .tap(KeyPress(.keyboard(0x28))),
                .press(Self.shift),
                .release(Self.shift),
            ])
        #expect(macro.description == "ctrl+c, delay 50, text 'hello', enter, press shift, release shift")
    }

    @Test(
        "keys in any spelling, case-insensitive",
        arguments: [
            ("KC_ENT", KeyPress(.keyboard(0x28))), ("Enter", KeyPress(.keyboard(0x28))),
            ("ret", KeyPress(.keyboard(0x28))),
            ("kp_1", KeyPress(.keyboard(0x59))), ("KEY_KP1", KeyPress(.keyboard(0x59))),
            ("f5", KeyPress(.keyboard(0x3E))),
            ("CTRL+SHIFT+ESC", KeyPress(.keyboard(0x29), modifiers: [.leftControl, .leftShift])),
            ("rctrl+ralt+del", KeyPress(.keyboard(0x4C), modifiers: [.rightControl, .rightAlt])),
            ("cmd+space", KeyPress(.keyboard(0x2C), modifiers: .leftGUI)),
            ("KC_EXLM", KeyPress(.keyboard(0x1E), modifiers: .leftShift)),
            ("shift", KeyPress(Self.shift)),
            ("volume_up", KeyPress(.consumer(0xE9))),
        ])
    func keys(text: String, press: KeyPress) throws {
        #expect(try Macro(parsing: text).steps == [.tap(press)])
    }

    @Test("quoted text with escapes")
    func quoting() throws {
        #expect(try Macro(parsing: #"text 'it\'s a \\ test'"#).steps == [.text(#"it's a \ test"#)])
        #expect(try Macro(parsing: #"text "it's""#).steps == [.text("it's")])
        let macro = try Macro(steps: [.text(#"a'b\c"d"#)])
        #expect(try Macro(parsing: macro.description) == macro)
    }

    @Test(
        "printing parses back to the same macro",
        arguments: [
            "ctrl+c", "enter", "shift+1", "press shift, a, release shift", "delay 0", "delay 10000",
            "text ' '", "text 'hello, world'", "gui+r, delay 200, text 'cmd', enter",
            "ctrl+alt+gui+shift+f24", "rgui+kp_dot", "volume_up, mute, play_pause", "left_bracket, right_bracket",
        ])
    func roundTrip(text: String) throws {
        let macro = try Macro(parsing: text)
        #expect(try Macro(parsing: macro.description) == macro)
    }

    @Test("random macros round-trip through their text form")
    func randomRoundTrip() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<300 {
            let macro = try Macro(steps: RandomMacroSteps.random(using: &random))
            #expect(try Macro(parsing: macro.description) == macro, "\(macro)")
        }
    }

    @Test(
        "malformed macros are refused with the place of the problem",
        arguments: [
            ("", 0), ("ctrl+", 5), ("ctrl+c,", 7), ("delay", 5), ("delay -5", 6), ("delay x", 6),
            ("text hello", 5), ("text 'unterminated", 5), ("c+ctrl", 0), ("press ctrl+c", 6), ("tap", 3),
            ("ctrl+c;", 6), ("a b", 2), (#"text 'a\q'"#, 7), ("enterr", 0),
        ])
    func syntaxErrors(text: String, offset: Int) {
        #expect {
            try Macro(parsing: text)
        } throws: { error in
            guard case .macroSyntax(_, let at, _) = error as? KeymapError else { return false }
            return at == offset
        }
    }

    @Test("unknown keys suggest a name")
    func unknownKey() {
        #expect(throws: KeymapError.macroSyntax("entr", offset: 0, reason: "unknown key 'entr'; did you mean 'enter'?"))
        {
            try Macro(parsing: "entr")
        }
    }

    @Test("a syntax error names the character and the reason, never the macro's text")
    func errorsWithholdTheText() throws {
        let secret = "text 'correct-horse-battery', enter, ctrl+"
        let error = try #require(throws: KeymapError.self) { try Macro(parsing: secret) }
        #expect(error.description.contains("at character"))
        #expect(!error.description.contains("correct-horse"), "\(error.description)")
    }

    @Test(
        "well-formed steps that break a rule are refused",
        arguments: [
            "delay 10001", "text ''", "text 'héllo'", "text 'tab\there'", "HID(0x0C, 0x123)", "mo1",
        ])
    func ruleErrors(text: String) {
        #expect(throws: KeymapError.self) { try Macro(parsing: text) }
    }

    @Test(
        "names follow [A-Za-z0-9_-]{1,32}",
        arguments: [
            ("copy", true), ("Copy_Line-2", true), (String(repeating: "m", count: 32), true),
            ("", false), ("has space", false), (String(repeating: "m", count: 33), false), ("ü", false),
            ("a.b", false),
        ])
    func names(text: String, valid: Bool) {
        #expect(((try? MacroName(text)) != nil) == valid)
    }

    @Test("canonical form folds chords and joins neighbours")
    func normalization() throws {
        let macro = try Macro(
            parsing: "press ctrl, press shift, t, release shift, release ctrl, delay 6000, delay 6000, "
                + "text 'ab', text 'cd', press ctrl, x, release shift")
        #expect(
            macro.normalized().description
                == "ctrl+shift+t, delay 10000, delay 2000, text 'abcd', press ctrl, x, release shift")
    }
}

/// Random valid macro steps for property tests.
enum RandomMacroSteps {
    static let keys: [HIDUsage] = [
        .keyboard(0x04), .keyboard(0x1E), .keyboard(0x28), .keyboard(0x2C),
        .keyboard(0x3A), .keyboard(0x59), .keyboard(0xE0), .keyboard(0xE1), .keyboard(0xE6), .consumer(0xE9),
        .keyboard(0x2F), .keyboard(0x34),
    ]

    static func random(using random: inout SeededRandom) -> [MacroStep] {
        let count = Int.random(in: 1...8, using: &random)
        return (0..<count).map { _ in
            let key = keys.randomElement(using: &random) ?? .keyboard(0x04)
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                return .tap(KeyPress(key, modifiers: ModifierSet(rawValue: UInt8.random(in: 0...255, using: &random))))
            case 1: return .press(key)
            case 2: return .release(key)
            case 3: return .delay(milliseconds: Int.random(in: 0...10_000, using: &random))
            default:
                let length = Int.random(in: 1...12, using: &random)
                let characters = (0..<length).map { _ in
                    Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random)))
                }
                return .text(String(characters))
            }
        }
    }
}
