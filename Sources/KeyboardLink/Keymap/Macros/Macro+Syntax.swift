/// The text form of a macro.
///
/// Steps are separated by commas; spaces around tokens do not matter; keywords and key names are
/// case-insensitive:
///
/// ```
/// macro  := step ("," step)*
/// step   := chord                  tap the chord: "ctrl+c", "enter", "shift+1"
///         | "tap" chord            the same, spelled out: "tap enter"
///         | "press" key            hold a key down: "press shift"
///         | "release" key          let it go: "release shift"
///         | "delay" milliseconds   wait, 0 to 10000: "delay 50"
///         | "text" quoted          type printable ASCII: "text 'hello'", "text \"it's\""
/// chord  := key ("+" key)*         every key but the last is a modifier
/// key    := any key name KeyAction(parsing:) accepts, "KC_" optional ("enter", "KC_ENT", "kp_1", "f5"),
///           or ctrl, shift, alt, gui (also control, option, win, super, cmd, meta), rctrl, rshift, ralt, rgui
/// quoted := '...' or "..." with \' \" \\ as escapes
/// ```
///
/// Example: `ctrl+c, delay 50, text 'hello', tap enter, press shift, release shift`.
/// Printing writes taps as bare chords, modifiers as ctrl/shift/alt/gui and keys by QMK's long name without
/// `KC_` (`enter`, `left_bracket`, `kp_1`), so the printed form parses back to the same macro.
extension Macro: CustomStringConvertible {
    /// The longest macro text accepted.
    package static let maximumSourceLength = 16_384

    /// Parses the text form.
    /// - Throws: `KeymapError.macroSyntax` with the offset of the problem, or `.invalidMacro` for a rule broken by
    ///   a well-formed step (a delay over 10000 ms, non-ASCII text).
    package init(parsing source: String) throws(KeymapError) {
        var parser = MacroSyntaxParser(source)
        try self.init(steps: try parser.parse())
    }

    /// The text form, which `Macro(parsing:)` reads back to an equal macro.
    package var description: String {
        steps.map(Self.text(of:)).joined(separator: ", ")
    }

    package static func text(of step: MacroStep) -> String {
        switch step {
        case .tap(let press):
            let modifiers = press.modifiers.members.compactMap { friendlyModifierNames[$0.rawValue] }
            return (modifiers + [keyText(press.usage)]).joined(separator: "+")
        case .press(let usage): return "press " + keyText(usage)
        case .release(let usage): return "release " + keyText(usage)
        case .delay(let milliseconds): return "delay \(milliseconds)"
        case .text(let text):
            var escaped = ""
            for character in text {
                if character == "'" || character == "\\" { escaped.append("\\") }
                escaped.append(character)
            }
            return "text '\(escaped)'"
        }
    }

    private static func keyText(_ usage: HIDUsage) -> String {
        if let bit = usage.modifierBit, let name = friendlyModifierNames[bit.rawValue] { return name }
        return KeycodeTable.shared.entry(for: usage)?.macroName ?? usage.description
    }

    private static let friendlyModifierNames: [UInt8: String] = [
        0x01: "ctrl", 0x02: "shift", 0x04: "alt", 0x08: "gui", 0x10: "rctrl", 0x20: "rshift", 0x40: "ralt",
        0x80: "rgui",
    ]
}

/// Reads the macro text form; see `Macro+Syntax.swift` for the grammar.
struct MacroSyntaxParser {
    private enum Kind: Equatable {
        case word(String)
        case quoted(String)
        case plus
        case comma
    }

    private struct Token {
        var kind: Kind
        var offset: Int
    }

    private let source: String
    private var tokens: [Token] = []
    private var position = 0

    init(_ source: String) {
        self.source = source
    }

    mutating func parse() throws(KeymapError) -> [MacroStep] {
        guard source.count <= Macro.maximumSourceLength else {
            throw .macroSyntax(source, offset: 0, reason: "longer than \(Macro.maximumSourceLength) characters")
        }
        try tokenize()
        var steps: [MacroStep] = []
        guard !tokens.isEmpty else { throw .macroSyntax(source, offset: 0, reason: "the macro is empty") }
        while true {
            steps.append(try parseStep())
            guard position < tokens.count else { break }
            guard tokens[position].kind == .comma else {
                throw error(at: tokens[position].offset, "expected ',' between steps")
            }
            position += 1
            guard position < tokens.count else { throw error(at: source.count, "a step is missing after the last ','") }
        }
        return steps
    }

    private func error(at offset: Int, _ reason: String) -> KeymapError {
        .macroSyntax(source, offset: offset, reason: reason)
    }

    private mutating func tokenize() throws(KeymapError) {
        let characters = Array(source)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case " ", "\t", "\n", "\r":
                index += 1
            case "+":
                tokens.append(Token(kind: .plus, offset: index))
                index += 1
            case ",":
                tokens.append(Token(kind: .comma, offset: index))
                index += 1
            case "'", "\"":
                let start = index
                var text = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let next = characters[index]
                    if next == "\\" {
                        guard index + 1 < characters.count else { break }
                        let escaped = characters[index + 1]
                        guard escaped == "'" || escaped == "\"" || escaped == "\\" else {
                            throw error(at: index, "unknown escape '\\\(escaped)'; use \\' \\\" or \\\\")
                        }
                        text.append(escaped)
                        index += 2
                    } else if next == character {
                        closed = true
                        index += 1
                        break
                    } else {
                        text.append(next)
                        index += 1
                    }
                }
                guard closed else { throw error(at: start, "the quoted text is not closed") }
                tokens.append(Token(kind: .quoted(text), offset: start))
            default:
                guard character.isASCII, character.isLetter || character.isNumber || character == "_" else {
                    throw error(at: index, "unexpected character '\(character)'")
                }
                let start = index
                var word = ""
                while index < characters.count, characters[index].isASCII,
                    characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                {
                    word.append(characters[index])
                    index += 1
                }
                tokens.append(Token(kind: .word(word), offset: start))
            }
        }
    }

    private var endOffset: Int { source.count }

    private mutating func parseStep() throws(KeymapError) -> MacroStep {
        guard position < tokens.count else { throw error(at: endOffset, "expected a step") }
        let token = tokens[position]
        guard case .word(let word) = token.kind else {
            throw error(at: token.offset, "expected a step such as 'ctrl+c', 'delay 50' or 'text ...'")
        }
        switch word.lowercased() {
        case "tap":
            position += 1
            return .tap(try parseChord())
        case "press", "release":
            position += 1
            let offset = position < tokens.count ? tokens[position].offset : endOffset
            let press = try parseChord()
            guard press.modifiers.isEmpty else {
                throw error(at: offset, "\(word.lowercased()) takes one key; press modifiers with their own step")
            }
            return word.lowercased() == "press" ? .press(press.usage) : .release(press.usage)
        case "delay":
            position += 1
            guard position < tokens.count, case .word(let number) = tokens[position].kind else {
                throw error(
                    at: position < tokens.count ? tokens[position].offset : endOffset,
                    "delay needs a number of milliseconds")
            }
            guard number.count <= 9, number.allSatisfy(\.isNumber), let milliseconds = Int(number) else {
                throw error(at: tokens[position].offset, "'\(number)' is not a number of milliseconds")
            }
            position += 1
            return .delay(milliseconds: milliseconds)
        case "text":
            position += 1
            guard position < tokens.count, case .quoted(let text) = tokens[position].kind else {
                throw error(
                    at: position < tokens.count ? tokens[position].offset : endOffset,
                    "text needs quoted text, such as text 'hello'")
            }
            position += 1
            return .text(text)
        default:
            return .tap(try parseChord())
        }
    }

    private mutating func parseChord() throws(KeymapError) -> KeyPress {
        var keys: [(KeyPress, Int)] = []
        repeat {
            if !keys.isEmpty { position += 1 }
            guard position < tokens.count, case .word(let word) = tokens[position].kind else {
                throw error(at: position < tokens.count ? tokens[position].offset : endOffset, "expected a key name")
            }
            keys.append((try resolveKey(word, offset: tokens[position].offset), tokens[position].offset))
            position += 1
        } while position < tokens.count && tokens[position].kind == .plus
        guard let (last, _) = keys.last else { throw error(at: endOffset, "expected a key name") }
        var modifiers = last.modifiers
        for (key, offset) in keys.dropLast() {
            guard key.modifiers.isEmpty, let bit = key.usage.modifierBit else {
                throw error(at: offset, "only modifiers (ctrl, shift, alt, gui) may come before '+'")
            }
            modifiers.formUnion(bit)
        }
        return KeyPress(last.usage, modifiers: modifiers)
    }

    private func resolveKey(_ word: String, offset: Int) throws(KeymapError) -> KeyPress {
        let table = KeycodeTable.shared
        let upper = word.uppercased()
        if let press = table.byName[upper] ?? table.byName["KC_" + upper] { return press }
        let candidates = table.entries.map(\.macroName) + ["ctrl", "shift", "alt", "gui", "rctrl", "rshift", "ralt"]
        let hint = EditDistance.nearest(to: word, in: candidates)
        throw error(
            at: offset, "unknown key '\(KeymapError.printable(word))'" + (hint.map { "; did you mean '\($0)'?" } ?? ""))
    }
}
