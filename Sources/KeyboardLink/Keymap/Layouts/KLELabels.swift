/// Turns keyboard-layout-editor legends into stable key names.
///
/// A label is KLE's legend text, legends separated by newlines (`!\n1`). Known whole labels (`!\n1`, `7\nHome`)
/// name their key outright; otherwise each legend is looked up, last first (KLE puts the primary legend of
/// two-legend keys last). Legends that fit more than one key (`Shift`, `Enter`, `5`, `/`) are resolved after all
/// the others, in reading order, to the first of their candidates not yet taken (left Shift before right Shift,
/// the main `5` before the keypad `5`). Anything else becomes its legend upper-cased with `_` for other characters.
enum KLELabels {
    /// The candidate names for a label, most likely first; empty when the label is unknown.
    static func candidates(for label: String, width: Double) -> [String] {
        let legends = label.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingSpaces.lowercased()
        }
        let nonEmpty = legends.filter { !$0.isEmpty }
        if let whole = wholeLabels[nonEmpty.joined(separator: "\n")] { return [whole] }
        if nonEmpty.isEmpty { return width >= 3 ? ["SPACE"] : [] }
        for legend in nonEmpty.reversed() {
            if let names = legendNames[legend] { return names }
            if legend.count == 1, let scalar = legend.unicodeScalars.first, ("a"..."z").contains(scalar) {
                return [legend.uppercased()]
            }
            if legend.hasPrefix("f"), let number = Int(legend.dropFirst()), (1...24).contains(number) {
                return ["F\(number)"]
            }
            if legend.count == 1, let digit = Int(legend) { return ["\(digit)", "KP_\(digit)"] }
        }
        return []
    }

    /// A key name made from the first legend when no candidate fits; nil when nothing usable is left.
    static func fallbackName(for label: String) -> String? {
        guard let legend = label.split(separator: "\n").map(\.trimmingSpaces).first(where: { !$0.isEmpty }) else {
            return nil
        }
        var name = ""
        for scalar in legend.uppercased().unicodeScalars {
            let isWordCharacter = ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            if isWordCharacter {
                name.unicodeScalars.append(scalar)
            } else if !name.isEmpty, !name.hasSuffix("_") {
                name += "_"
            }
        }
        while name.hasSuffix("_") { name.removeLast() }
        return name.isEmpty ? nil : String(name.prefix(28))
    }

    /// The zone a key name suggests.
    static func zone(for name: String, hasFunctionKeys: Bool) -> ZoneID {
        if name == "ESC" { return hasFunctionKeys ? .function : .standard }
        if ["PSCR", "SCRL", "PAUS"].contains(name) { return .function }
        if name.hasPrefix("F"), let number = Int(name.dropFirst()), (1...24).contains(number) { return .function }
        if name == "NUM" || name.hasPrefix("KP_") { return .number }
        if ["INS", "HOME", "PGUP", "DEL", "END", "PGDN", "UP", "DOWN", "LEFT", "RIGHT"].contains(name) {
            return .navigation
        }
        return .standard
    }

    private static let wholeLabels: [String: String] = [
        "~\n`": "GRAVE", "!\n1": "1", "@\n2": "2", "#\n3": "3", "$\n4": "4", "%\n5": "5", "^\n6": "6",
        "&\n7": "7", "*\n8": "8", "(\n9": "9", ")\n0": "0", "_\n-": "MINUS", "+\n=": "EQUAL", "{\n[": "LBRC",
        "}\n]": "RBRC", "|\n\\": "BSLS", ":\n;": "SCLN", "\"\n'": "QUOT", "<\n,": "COMMA", ">\n.": "DOT",
        "?\n/": "SLASH", "7\nhome": "KP_7", "8\n↑": "KP_8", "9\npgup": "KP_9", "4\n←": "KP_4", "6\n→": "KP_6",
        "1\nend": "KP_1", "2\n↓": "KP_2", "3\npgdn": "KP_3", "0\nins": "KP_0", ".\ndel": "KP_DOT",
        "pause\nbreak": "PAUS", "print\nscreen": "PSCR", "scroll\nlock": "SCRL", "num\nlock": "NUM",
        "caps\nlock": "CAPS", "page\nup": "PGUP", "page\ndown": "PGDN",
    ]

    private static let legendNames: [String: [String]] = {
        var table: [String: [String]] = [:]
        func add(_ names: [String], _ legends: String...) {
            for legend in legends { table[legend] = names }
        }
        add(["ESC"], "esc", "escape")
        add(["GRAVE"], "`", "~")
        add(["MINUS", "KP_MINUS"], "-")
        add(["MINUS"], "_")
        add(["EQUAL"], "=")
        add(["KP_PLUS", "EQUAL"], "+")
        add(["BSPC"], "backspace", "bksp", "bspc", "back space", "⌫", "←backspace", "← backspace")
        add(["TAB"], "tab", "⇥", "↹")
        add(["LBRC"], "[", "{")
        add(["RBRC"], "]", "}")
        add(["BSLS"], "\\", "|")
        add(["CAPS"], "caps lock", "caps", "capslock", "⇪")
        add(["SCLN"], ";", ":")
        add(["QUOT"], "'", "\"")
        add(["ENTER", "KP_ENTER"], "enter", "return", "↵", "⏎", "⌤")
        add(["LSFT", "RSFT"], "shift", "⇧", "lshift", "rshift")
        add(["COMMA"], ",", "<")
        add(["DOT", "KP_DOT"], ".")
        add(["DOT"], ">")
        add(["SLASH", "KP_SLASH"], "/")
        add(["SLASH"], "?")
        add(["KP_ASTERISK"], "*")
        add(["LCTL", "RCTL"], "ctrl", "control", "⌃", "ctl")
        add(["LGUI", "RGUI"], "win", "super", "gui", "meta", "cmd", "command", "⌘", "os", "windows", "◆")
        add(["LALT", "RALT"], "alt", "option", "opt", "⌥")
        add(["RALT"], "altgr", "alt gr")
        add(["SPACE"], "space", "spacebar")
        add(["APP"], "menu", "app", "apps", "▤")
        add(["FN"], "fn", "function")
        add(["PSCR"], "prtsc", "print screen", "prt sc", "print", "prtscn", "prt scr", "psc", "printscreen")
        add(["SCRL"], "scroll lock", "scrlk", "scroll", "scr lk", "scrolllock")
        add(["PAUS"], "pause", "pause break", "break", "pause/break")
        add(["INS"], "insert", "ins")
        add(["HOME"], "home")
        add(["PGUP"], "page up", "pgup", "pg up", "pageup")
        add(["DEL"], "delete", "del")
        add(["END"], "end")
        add(["PGDN"], "page down", "pgdn", "pg dn", "pagedown")
        add(["UP"], "↑", "up")
        add(["DOWN"], "↓", "down")
        add(["LEFT"], "←", "left")
        add(["RIGHT"], "→", "right")
        add(["NUM"], "num lock", "numlock", "num", "num lk", "numlk")
        return table
    }()
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }
}
