/// Reads a key action in any accepted spelling. See `KeyAction(parsing:)` for the grammar.
struct KeyActionParser {
    private enum Token: Equatable {
        case word(String)
        case symbol(Character)
    }

    /// The longest action text accepted; real actions are far shorter.
    static let maximumLength = 256
    private static let maximumDepth = 12

    private let text: String
    private var tokens: [Token] = []
    private var position = 0
    private var depth = 0
    private let table = KeycodeTable.shared

    init(_ text: String) {
        self.text = text
    }

    mutating func parse() throws(KeymapError) -> KeyAction {
        guard text.utf8.count <= Self.maximumLength else {
            throw .malformedAction(text, reason: "longer than \(Self.maximumLength) characters")
        }
        try tokenize()
        guard !tokens.isEmpty else { throw .malformedAction(text, reason: "it is empty") }
        let action: KeyAction
        if peek == .symbol("&") {
            position += 1
            action = try parseZMKBinding()
        } else {
            action = try parseExpression()
        }
        if position < tokens.count { throw malformed("unexpected \(describe(tokens[position])) after the action") }
        return action
    }

    // MARK: Tokens

    private mutating func tokenize() throws(KeymapError) {
        var word = ""
        for character in text {
            if character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-") {
                word.append(character)
                continue
            }
            if !word.isEmpty {
                tokens.append(.word(word))
                word = ""
            }
            switch character {
            case " ", "\t": continue
            case "(", ")", ",", "|", "&": tokens.append(.symbol(character))
            default: throw .malformedAction(text, reason: "the character '\(character)' is not allowed here")
            }
        }
        if !word.isEmpty { tokens.append(.word(word)) }
    }

    private var peek: Token? { position < tokens.count ? tokens[position] : nil }

    private static func text(of token: Token) -> String {
        switch token {
        case .word(let word): return word
        case .symbol(let symbol): return String(symbol)
        }
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .word(let word): return "'\(KeymapError.printable(word))'"
        case .symbol(let symbol): return "'\(symbol)'"
        }
    }

    private func malformed(_ reason: String) -> KeymapError { .malformedAction(text, reason: reason) }

    private mutating func expect(_ symbol: Character, _ context: String) throws(KeymapError) {
        guard peek == .symbol(symbol) else {
            let found = peek.map(describe) ?? "the end"
            throw malformed("expected '\(symbol)' \(context), found \(found)")
        }
        position += 1
    }

    private mutating func word(_ context: String) throws(KeymapError) -> String {
        guard case .word(let word) = peek else {
            let found = peek.map(describe) ?? "the end"
            throw malformed("expected \(context), found \(found)")
        }
        position += 1
        return word
    }

    private mutating func number(_ context: String, max: Int) throws(KeymapError) -> Int {
        let word = try self.word(context)
        let value: Int?
        if word.lowercased().hasPrefix("0x") {
            value = Int(word.dropFirst(2), radix: 16)
        } else {
            value = word.allSatisfy(\.isNumber) ? Int(word) : nil
        }
        guard let value, value >= 0, value <= max else {
            throw malformed("expected \(context) from 0 to \(max), found '\(KeymapError.printable(word))'")
        }
        return value
    }

    private mutating func layer() throws(KeymapError) -> Int {
        try number("a layer number", max: KeyAction.maximumLayer)
    }

    // MARK: QMK-style expressions

    private mutating func parseExpression() throws(KeymapError) -> KeyAction {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw malformed("nested more than \(Self.maximumDepth) deep") }
        let name = try word("a key code")
        let upper = name.uppercased()
        if peek == .symbol("(") {
            position += 1
            let action = try parseCall(name: name, upper: upper)
            try expect(")", "to close \(upper)(")
            return action
        }
        return try plainName(name, upper: upper)
    }

    private mutating func parseKeyPress(_ context: String) throws(KeymapError) -> KeyPress {
        let start = position
        let action = try parseExpression()
        guard case .key(let press) = action else {
            let shown = tokens[start..<position].map(Self.text(of:)).joined()
            throw malformed("\(context) takes a key, and \(KeymapError.printable(shown)) is not one")
        }
        return press
    }

    private mutating func parseCall(name: String, upper: String) throws(KeymapError) -> KeyAction {
        if let modifiers = Self.modifierWrappers[upper] {
            let inner = try parseKeyPress(upper)
            return .key(KeyPress(inner.usage, modifiers: inner.modifiers.union(modifiers)))
        }
        if let modifiers = Self.modTapShorthands[upper] {
            let tap = try parseKeyPress(upper)
            return .modTap(modifiers: modifiers, tap: tap)
        }
        switch upper {
        case "MO": return .momentaryLayer(try layer())
        case "TG": return .toggleLayer(try layer())
        case "TO": return .toLayer(try layer())
        case "LT":
            let layer = try layer()
            try expect(",", "between the layer and the key of LT")
            return .layerTap(layer: layer, tap: try parseKeyPress("LT"))
        case "MT":
            var modifiers = ModifierSet()
            repeat {
                if peek == .symbol("|") { position += 1 }
                let modName = try word("a modifier such as MOD_LCTL").uppercased()
                guard let bits = Self.modMasks[modName] else {
                    let hint = EditDistance.nearest(to: modName, in: Self.modMasks.keys.sorted())
                    throw malformed(
                        "unknown modifier '\(KeymapError.printable(modName))'"
                            + (hint.map { "; did you mean \($0)?" } ?? ""))
                }
                modifiers.formUnion(bits)
            } while peek == .symbol("|")
            try expect(",", "between the modifiers and the key of MT")
            return .modTap(modifiers: modifiers, tap: try parseKeyPress("MT"))
        case "MACRO":
            return .macro(try MacroName(try word("a macro name")))
        case "HID":
            let page = try number("a usage page", max: 0xFFFF)
            try expect(",", "between the usage page and the usage id of HID")
            let id = try number("a usage id", max: 0xFFFF)
            return .key(HIDUsage(page: UInt16(page), id: UInt16(id)))
        case "QMK":
            return KeyAction(qmkKeycode: UInt16(try number("a 16-bit QMK keycode", max: 0xFFFF)))
        default:
            let hint = EditDistance.nearest(to: upper, in: Self.functionNames)
            throw .unknownKeycode(name + "(...)", suggestion: hint.map { $0 + "(...)" })
        }
    }

    private func plainName(_ name: String, upper: String) throws(KeymapError) -> KeyAction {
        switch upper {
        case "KC_NO", "XXXXXXX", "NONE": return .none
        case "KC_TRNS", "KC_TRANSPARENT", "_______", "TRANS": return .transparent
        default: break
        }
        if let press = table.byName[upper] { return .key(press) }
        if upper.hasPrefix("QK_MACRO_"), let index = Int(upper.dropFirst(9)), (0..<128).contains(index) {
            return .qmkKeycode(KeyAction.qmkMacroBase + UInt16(index))
        }
        if upper.allSatisfy(\.isNumber) {
            throw .malformedAction(
                text, reason: "a bare number is not a key; for the digit use KC_\(upper) or N\(upper)")
        }
        // Real keys only: a typo never gets "did you mean KC_NO" (a key that does nothing) or KC_TRNS.
        let suggestion = EditDistance.nearest(to: upper, in: table.allNames.filter { !Self.emptyNames.contains($0) })
        throw .unknownKeycode(name, suggestion: suggestion)
    }

    // MARK: ZMK bindings

    private mutating func parseZMKBinding() throws(KeymapError) -> KeyAction {
        let behaviour = try word("a behaviour name after '&'")
        switch behaviour.lowercased() {
        case "kp": return .key(try parseKeyPress("&kp"))
        case "mo": return .momentaryLayer(try layer())
        case "tog": return .toggleLayer(try layer())
        case "to": return .toLayer(try layer())
        case "lt":
            let layer = try layer()
            return .layerTap(layer: layer, tap: try parseKeyPress("&lt"))
        case "mt":
            let hold = try parseKeyPress("&mt")
            guard let bit = hold.usage.modifierBit else {
                throw malformed("&mt holds a modifier such as LCTRL, not \(KeyAction.key(hold))")
            }
            return .modTap(modifiers: hold.modifiers.union(bit), tap: try parseKeyPress("&mt"))
        case "trans": return .transparent
        case "none": return .none
        default:
            guard peek == nil else {
                throw malformed(
                    "unknown behaviour &\(KeymapError.printable(behaviour)) with parameters; "
                        + "known: &kp, &mo, &tog, &to, &lt, &mt, &trans, &none, or &macro_name alone")
            }
            // ZMK binds macros as behaviours of their own name (`&my_macro`).
            return .macro(try MacroName(behaviour))
        }
    }

    // MARK: Name tables

    private static let modifierWrappers: [String: ModifierSet] = [
        "LCTL": .leftControl, "C": .leftControl, "LC": .leftControl,
        "LSFT": .leftShift, "S": .leftShift, "LS": .leftShift,
        "LALT": .leftAlt, "A": .leftAlt, "LOPT": .leftAlt, "LA": .leftAlt,
        "LGUI": .leftGUI, "G": .leftGUI, "LCMD": .leftGUI, "LWIN": .leftGUI, "LG": .leftGUI,
        "RCTL": .rightControl, "RC": .rightControl,
        "RSFT": .rightShift, "RS": .rightShift,
        "RALT": .rightAlt, "ALGR": .rightAlt, "ROPT": .rightAlt, "RA": .rightAlt,
        "RGUI": .rightGUI, "RCMD": .rightGUI, "RWIN": .rightGUI, "RG": .rightGUI,
        "HYPR": [.leftControl, .leftShift, .leftAlt, .leftGUI],
        "MEH": [.leftControl, .leftShift, .leftAlt],
        "C_S": [.leftControl, .leftShift],
        "SGUI": [.leftShift, .leftGUI], "SCMD": [.leftShift, .leftGUI], "SWIN": [.leftShift, .leftGUI],
    ]

    private static let modTapShorthands: [String: ModifierSet] = [
        "LCTL_T": .leftControl, "CTL_T": .leftControl,
        "LSFT_T": .leftShift, "SFT_T": .leftShift,
        "LALT_T": .leftAlt, "ALT_T": .leftAlt, "LOPT_T": .leftAlt, "OPT_T": .leftAlt,
        "LGUI_T": .leftGUI, "GUI_T": .leftGUI, "LCMD_T": .leftGUI, "CMD_T": .leftGUI, "LWIN_T": .leftGUI,
        "WIN_T": .leftGUI,
        "RCTL_T": .rightControl, "RSFT_T": .rightShift,
        "RALT_T": .rightAlt, "ROPT_T": .rightAlt, "ALGR_T": .rightAlt,
        "RGUI_T": .rightGUI, "RCMD_T": .rightGUI, "RWIN_T": .rightGUI,
        "HYPR_T": [.leftControl, .leftShift, .leftAlt, .leftGUI],
        "ALL_T": [.leftControl, .leftShift, .leftAlt, .leftGUI],
        "MEH_T": [.leftControl, .leftShift, .leftAlt],
        "C_S_T": [.leftControl, .leftShift],
    ]

    static let modMasks: [String: ModifierSet] = [
        "MOD_LCTL": .leftControl, "MOD_LSFT": .leftShift, "MOD_LALT": .leftAlt, "MOD_LGUI": .leftGUI,
        "MOD_RCTL": .rightControl, "MOD_RSFT": .rightShift, "MOD_RALT": .rightAlt, "MOD_RGUI": .rightGUI,
        "MOD_HYPR": [.leftControl, .leftShift, .leftAlt, .leftGUI], "MOD_MEH": [.leftControl, .leftShift, .leftAlt],
    ]

    private static let specialNames = ["KC_NO", "KC_TRNS", "KC_TRANSPARENT", "XXXXXXX", "_______"]
    /// Names of the actions that send nothing (no key, transparent), never offered as suggestions.
    private static let emptyNames: Set<String> = Set(specialNames + ["NONE", "TRANS", "NO", "TRNS", "KC_NONE"])

    private static let functionNames: [String] =
        ["MO", "TG", "TO", "LT", "MT", "MACRO", "HID", "QMK"] + modifierWrappers.keys.sorted()
        + modTapShorthands.keys.sorted()
}
