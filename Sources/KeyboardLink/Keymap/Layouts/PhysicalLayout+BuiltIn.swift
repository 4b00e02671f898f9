extension PhysicalLayout {
    /// The ids of the built-in layouts.
    package static let builtInIDs = ["aula-f87", "vgn-98pro", "ansi-60", "ansi-75", "tkl-ansi", "full-ansi"]

    /// A built-in layout by id.
    ///
    /// - `aula-f87`: the AULA F87, an 87-key ANSI TKL with Fn in place of the right GUI key (function row,
    ///   standard and navigation zones).
    /// - `vgn-98pro`: the VGN 98Pro, a 98-key compact full-size board with a number pad (all four zones).
    /// - `ansi-60`: a generic 61-key 60% board (Escape on the number row; standard zone only).
    /// - `ansi-75`: a generic 84-key 75% board with Fn.
    /// - `tkl-ansi`: a generic 87-key ANSI TKL.
    /// - `full-ansi`: a generic 104-key ANSI full-size board.
    /// - Throws: `KeymapError.unknownLayout` listing the known ids.
    package static func builtIn(_ id: String) throws(KeymapError) -> PhysicalLayout {
        switch id.lowercased() {
        case "aula-f87": return try tenkeyless(id: "aula-f87", name: "AULA F87", rightGUI: "FN", numberPad: false)
        case "tkl-ansi":
            return try tenkeyless(id: "tkl-ansi", name: "ANSI TKL (87 keys)", rightGUI: "RGUI", numberPad: false)
        case "full-ansi":
            return try tenkeyless(id: "full-ansi", name: "ANSI full size (104 keys)", rightGUI: "RGUI", numberPad: true)
        case "ansi-60": return try ansi60()
        case "ansi-75": return try ansi75()
        case "vgn-98pro": return try vgn98Pro()
        default: throw .unknownLayout(id, available: builtInIDs)
        }
    }

    /// All built-in layouts.
    package static func allBuiltIn() -> [PhysicalLayout] {
        builtInIDs.compactMap { try? builtIn($0) }
    }

    // The standard ANSI block shared by every layout below (without the bottom row).
    private static let numberRow = "GRAVE 1 2 3 4 5 6 7 8 9 0 MINUS EQUAL BSPC:2"
    private static let topRow = "TAB:1.5 Q W E R T Y U I O P LBRC RBRC BSLS:1.5"
    private static let homeRow = "CAPS:1.75 A S D F G H J K L SCLN QUOT ENTER:2.25"
    private static let shiftRow = "LSFT:2.25 Z X C V B N M COMMA DOT SLASH"

    private static func tenkeyless(id: String, name: String, rightGUI: String, numberPad: Bool) throws(KeymapError)
        -> PhysicalLayout
    {
        var builder = LayoutBuilder()
        try builder.row(0, y: 0, .function, "ESC +1 F1 F2 F3 F4 +0.5 F5 F6 F7 F8 +0.5 F9 F10 F11 F12")
        try builder.row(0, y: 0, x: 15.25, .function, "PSCR SCRL PAUS")
        try builder.row(1, y: 1.5, .standard, numberRow)
        try builder.row(1, y: 1.5, x: 15.25, .navigation, "INS HOME PGUP")
        try builder.row(2, y: 2.5, .standard, topRow)
        try builder.row(2, y: 2.5, x: 15.25, .navigation, "DEL END PGDN")
        try builder.row(3, y: 3.5, .standard, homeRow)
        try builder.row(4, y: 4.5, .standard, shiftRow + " RSFT:2.75")
        try builder.row(4, y: 4.5, x: 16.25, .navigation, "UP")
        try builder.row(
            5, y: 5.5, .standard,
            "LCTL:1.25 LGUI:1.25 LALT:1.25 SPACE:6.25 RALT:1.25 \(rightGUI):1.25 APP:1.25 RCTL:1.25")
        try builder.row(5, y: 5.5, x: 15.25, .navigation, "LEFT DOWN RIGHT")
        if numberPad {
            try builder.row(1, y: 1.5, x: 18.5, .number, "NUM KP_SLASH KP_ASTERISK KP_MINUS")
            try builder.row(2, y: 2.5, x: 18.5, .number, "KP_7 KP_8 KP_9 KP_PLUS:1x2")
            try builder.row(3, y: 3.5, x: 18.5, .number, "KP_4 KP_5 KP_6")
            try builder.row(4, y: 4.5, x: 18.5, .number, "KP_1 KP_2 KP_3 KP_ENTER:1x2")
            try builder.row(5, y: 5.5, x: 18.5, .number, "KP_0:2 KP_DOT")
        }
        return try builder.build(id: id, name: name)
    }

    private static func ansi60() throws(KeymapError) -> PhysicalLayout {
        var builder = LayoutBuilder()
        try builder.row(0, y: 0, .standard, "ESC 1 2 3 4 5 6 7 8 9 0 MINUS EQUAL BSPC:2")
        try builder.row(1, y: 1, .standard, topRow)
        try builder.row(2, y: 2, .standard, homeRow)
        try builder.row(3, y: 3, .standard, shiftRow + " RSFT:2.75")
        try builder.row(
            4, y: 4, .standard, "LCTL:1.25 LGUI:1.25 LALT:1.25 SPACE:6.25 RALT:1.25 RGUI:1.25 APP:1.25 RCTL:1.25")
        return try builder.build(id: "ansi-60", name: "ANSI 60% (61 keys)")
    }

    private static func ansi75() throws(KeymapError) -> PhysicalLayout {
        var builder = LayoutBuilder()
        try builder.row(0, y: 0, .function, "ESC F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12 PSCR")
        try builder.row(0, y: 0, x: 14, .navigation, "INS DEL")
        try builder.row(1, y: 1, .standard, numberRow)
        try builder.row(1, y: 1, x: 15, .navigation, "HOME")
        try builder.row(2, y: 2, .standard, topRow)
        try builder.row(2, y: 2, x: 15, .navigation, "PGUP")
        try builder.row(3, y: 3, .standard, homeRow)
        try builder.row(3, y: 3, x: 15, .navigation, "PGDN")
        try builder.row(4, y: 4, .standard, shiftRow + " RSFT:1.75")
        try builder.row(4, y: 4, x: 14, .navigation, "UP END")
        try builder.row(5, y: 5, .standard, "LCTL:1.25 LGUI:1.25 LALT:1.25 SPACE:6.25 RALT FN RCTL")
        try builder.row(5, y: 5, x: 13, .navigation, "LEFT DOWN RIGHT")
        return try builder.build(id: "ansi-75", name: "ANSI 75% (84 keys)")
    }

    private static func vgn98Pro() throws(KeymapError) -> PhysicalLayout {
        var builder = LayoutBuilder()
        try builder.row(0, y: 0, .function, "ESC +0.5 F1 F2 F3 F4 +0.25 F5 F6 F7 F8 +0.25 F9 F10 F11 F12")
        try builder.row(0, y: 0, x: 15.5, .navigation, "DEL HOME PGUP PGDN")
        try builder.row(1, y: 1.25, .standard, numberRow)
        try builder.row(1, y: 1.25, x: 15.5, .number, "NUM KP_SLASH KP_ASTERISK KP_MINUS")
        try builder.row(2, y: 2.25, .standard, topRow)
        try builder.row(2, y: 2.25, x: 15.5, .number, "KP_7 KP_8 KP_9 KP_PLUS:1x2")
        try builder.row(3, y: 3.25, .standard, homeRow)
        try builder.row(3, y: 3.25, x: 15.5, .number, "KP_4 KP_5 KP_6")
        try builder.row(4, y: 4.25, .standard, shiftRow + " RSFT:1.75")
        try builder.row(4, y: 4.25, x: 14.25, .navigation, "UP")
        try builder.row(4, y: 4.25, x: 15.5, .number, "KP_1 KP_2 KP_3 KP_ENTER:1x2")
        try builder.row(5, y: 5.25, .standard, "LCTL:1.25 LGUI:1.25 LALT:1.25 SPACE:6.25 RALT FN RCTL")
        try builder.row(5, y: 5.25, x: 13.25, .navigation, "LEFT DOWN RIGHT")
        try builder.row(5, y: 5.25, x: 16.5, .number, "KP_0 KP_DOT")
        return try builder.build(id: "vgn-98pro", name: "VGN 98Pro")
    }
}
