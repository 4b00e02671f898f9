import KeyboardLinkKeymap

/// Which key types which printable ASCII character on a US layout, both ways: formats whose macros have no text
/// step (ZMK) write text as taps, and runs of such taps read back as text.
enum MacroCharacters {
    private static let spellings: [(Character, String)] = {
        var result: [(Character, String)] = []
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            result.append((letter, "KC_\(letter.uppercased())"))
            result.append((Character(letter.uppercased()), "LSFT(KC_\(letter.uppercased()))"))
        }
        for digit in "0123456789" { result.append((digit, "KC_\(digit)")) }
        let plain: [(Character, String)] = [
            (" ", "KC_SPC"), ("-", "KC_MINS"), ("=", "KC_EQL"), ("[", "KC_LBRC"), ("]", "KC_RBRC"),
            ("\\", "KC_BSLS"), (";", "KC_SCLN"), ("'", "KC_QUOT"), ("`", "KC_GRV"), (",", "KC_COMM"),
            (".", "KC_DOT"), ("/", "KC_SLSH"),
        ]
        let shifted: [(Character, String)] = [
            ("!", "KC_1"), ("@", "KC_2"), ("#", "KC_3"), ("$", "KC_4"), ("%", "KC_5"), ("^", "KC_6"), ("&", "KC_7"),
            ("*", "KC_8"), ("(", "KC_9"), (")", "KC_0"), ("_", "KC_MINS"), ("+", "KC_EQL"), ("{", "KC_LBRC"),
            ("}", "KC_RBRC"), ("|", "KC_BSLS"), (":", "KC_SCLN"), ("\"", "KC_QUOT"), ("~", "KC_GRV"),
            ("<", "KC_COMM"), (">", "KC_DOT"), ("?", "KC_SLSH"),
        ]
        result += plain
        result += shifted.map { ($0.0, "LSFT(\($0.1))") }
        return result
    }()

    /// The key press typing each character.
    static let pressByCharacter: [Character: KeyPress] = {
        var result: [Character: KeyPress] = [:]
        for (character, spelling) in spellings {
            if case .key(let press)? = try? KeyAction(parsing: spelling) { result[character] = press }
        }
        return result
    }()

    /// The character each key press types.
    static let characterByPress: [KeyPress: Character] = {
        Dictionary(pressByCharacter.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// The steps with text written out as taps.
    static func unfolded(_ steps: [MacroStep]) -> [MacroStep] {
        steps.flatMap { step -> [MacroStep] in
            guard case .text(let text) = step else { return [step] }
            return text.compactMap { pressByCharacter[$0].map(MacroStep.tap) }
        }
    }

    /// The steps with runs of two or more taps of printable characters as text.
    static func folded(_ steps: [MacroStep]) -> [MacroStep] {
        var result: [MacroStep] = []
        var run = ""
        func flush() {
            if run.count >= 2 {
                result.append(.text(run))
            } else if let only = run.first, let press = pressByCharacter[only] {
                result.append(.tap(press))
            }
            run = ""
        }
        for step in steps {
            if case .tap(let press) = step, let character = characterByPress[press],
                run.utf8.count < Macro.maximumTextLength
            {
                run.append(character)
            } else {
                flush()
                result.append(step)
            }
        }
        flush()
        return result
    }
}
