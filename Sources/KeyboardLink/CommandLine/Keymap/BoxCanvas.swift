/// A character grid on which rectangles are drawn as boxes that share their borders: each cell remembers which
/// directions its lines go, so that where boxes meet the right junction (`┬`, `┼`, `├`, ...) is printed.
struct BoxCanvas {
    /// The line directions of a cell.
    struct Edges: OptionSet {
        let rawValue: UInt8
        static let up = Edges(rawValue: 1)
        static let down = Edges(rawValue: 2)
        static let left = Edges(rawValue: 4)
        static let right = Edges(rawValue: 8)
    }

    /// How a cell is shown: its SGR colour code, nil for the terminal's default.
    struct Cell {
        var edges: Edges = []
        var text: Character?
        var color: String?
    }

    let width: Int
    let height: Int
    private(set) var cells: [[Cell]]

    init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Array(repeating: Cell(), count: self.width), count: self.height)
    }

    /// Draws a box with corners at (left, top) and (right, bottom), inclusive; outside parts are clipped.
    mutating func box(left: Int, top: Int, right: Int, bottom: Int, color: String?) {
        guard left < right, top < bottom else { return }
        for column in left...right {
            var edges: Edges = []
            if column > left { edges.insert(.left) }
            if column < right { edges.insert(.right) }
            add(edges, column: column, line: top, color: color)
            add(edges, column: column, line: bottom, color: color)
        }
        for line in top...bottom {
            var edges: Edges = []
            if line > top { edges.insert(.up) }
            if line < bottom { edges.insert(.down) }
            add(edges, column: left, line: line, color: color)
            add(edges, column: right, line: line, color: color)
        }
    }

    /// Writes text from a cell on, clipped to `limit` characters and to the canvas.
    mutating func write(_ text: String, column: Int, line: Int, limit: Int, color: String?) {
        guard cells.indices.contains(line) else { return }
        for (offset, character) in text.prefix(max(limit, 0)).enumerated() {
            let target = column + offset
            guard cells[line].indices.contains(target) else { return }
            cells[line][target].text = character
            cells[line][target].color = color
        }
    }

    private mutating func add(_ edges: Edges, column: Int, line: Int, color: String?) {
        guard cells.indices.contains(line), cells[line].indices.contains(column) else { return }
        cells[line][column].edges.formUnion(edges)
        if color != nil || cells[line][column].color == nil { cells[line][column].color = color }
    }

    /// The picture as lines, trailing spaces removed; with `colors`, SGR sequences around coloured runs.
    func lines(ascii: Bool, colors: Bool) -> [String] {
        cells.map { row in
            var line = ""
            var current: String?
            for cell in row {
                let character = cell.text ?? Self.character(cell.edges, ascii: ascii)
                let color = character == " " ? nil : cell.color
                if colors, color != current {
                    line += current == nil ? "" : "\u{1B}[0m"
                    if let color { line += "\u{1B}[\(color)m" }
                    current = color
                }
                line.append(character)
            }
            if colors, current != nil { line += "\u{1B}[0m" }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// The box-drawing character for a set of line directions.
    static func character(_ edges: Edges, ascii: Bool) -> Character {
        let vertical = edges.contains(.up) || edges.contains(.down)
        let horizontal = edges.contains(.left) || edges.contains(.right)
        if ascii {
            switch (vertical, horizontal) {
            case (true, true): return "+"
            case (true, false): return "|"
            case (false, true): return "-"
            case (false, false): return " "
            }
        }
        switch (edges.contains(.up), edges.contains(.down), edges.contains(.left), edges.contains(.right)) {
        case (false, false, false, false): return " "
        case (_, _, false, false): return "│"
        case (false, false, _, _): return "─"
        case (false, true, false, true): return "┌"
        case (false, true, true, false): return "┐"
        case (true, false, false, true): return "└"
        case (true, false, true, false): return "┘"
        case (true, true, false, true): return "├"
        case (true, true, true, false): return "┤"
        case (false, true, true, true): return "┬"
        case (true, false, true, true): return "┴"
        case (true, true, true, true): return "┼"
        }
    }
}
