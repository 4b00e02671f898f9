/// Digits drawn five rows high in full blocks, so a passkey can be read from across the desk.
package enum BlockDigits {
    /// The number of rows of every glyph.
    package static let height = 5
    /// The width of every glyph, in columns.
    package static let width = 5

    /// Each digit's rows, `#` for a block.
    private static let glyphs: [Character: [String]] = [
        "0": ["#####", "#   #", "#   #", "#   #", "#####"],
        "1": ["  #  ", " ##  ", "  #  ", "  #  ", " ### "],
        "2": ["#####", "    #", "#####", "#    ", "#####"],
        "3": ["#####", "    #", " ####", "    #", "#####"],
        "4": ["#   #", "#   #", "#####", "    #", "    #"],
        "5": ["#####", "#    ", "#####", "    #", "#####"],
        "6": ["#####", "#    ", "#####", "#   #", "#####"],
        "7": ["#####", "    #", "   # ", "  #  ", "  #  "],
        "8": ["#####", "#   #", "#####", "#   #", "#####"],
        "9": ["#####", "#   #", "#####", "    #", "#####"],
    ]

    /// Whether every character of `code` has a glyph (only the digits 0-9 do).
    package static func canDraw(_ code: String) -> Bool {
        !code.isEmpty && code.allSatisfy { glyphs[$0] != nil }
    }

    /// The rows of one digit, blocks as `█`; nil for a character that is not a digit.
    package static func glyph(_ digit: Character) -> [String]? {
        glyphs[digit]?.map { row in String(row.map { $0 == "#" ? "█" : " " }) }
    }

    /// The columns where digit `index` of a code starts: digits are two columns apart, with two more between
    /// the two halves of a six-digit code (read as 123 456).
    package static func column(of index: Int, count: Int) -> Int {
        index * (width + 2) + (count == 6 && index >= 3 ? 2 : 0)
    }

    /// Draws `code` (digits only) as `height` rows; `style` wraps each digit's part of a row (for colour).
    /// - Returns: the rows, or nil when `code` has a character that is not a digit.
    package static func draw(_ code: String, style: (Int, String) -> String = { $1 }) -> [String]? {
        guard canDraw(code) else { return nil }
        let digits = Array(code)
        var rows = Array(repeating: "", count: height)
        for (index, digit) in digits.enumerated() {
            guard let glyph = glyph(digit) else { return nil }
            let gap =
                index == 0
                ? 0 : column(of: index, count: digits.count) - column(of: index - 1, count: digits.count) - width
            for row in 0..<height {
                rows[row] += String(repeating: " ", count: gap) + style(index, glyph[row])
            }
        }
        return rows
    }
}
