import InsetCore

/// A terminal drawing of a screen, a window on it, the keyboard, the reserved band and the focused field: a grid of
/// characters scaled to fit (`size(fitting:screen:)` picks one for a terminal's width), with a legend line.
///
/// `.` is the screen, `+ - |` the window's outline, `%` the keyboard where it takes nothing from the window, `=`
/// the band reserved for it (drawn over the keyboard, which usually covers it), `#` the focused field where it ends
/// after the slide and `:` where it was before sliding. A character cell is taken as twice as tall as it is wide, so
/// shapes keep their proportions; a band or field thinner than a cell still takes one. Lines carry no trailing
/// spaces. With `usesColor`, ANSI colours are added.
package struct InsetPicture: Equatable, Sendable {
    /// The screen's size; its bounds are `(0, 0, width, height)`.
    package var screen: Size
    /// The window's frame in screen coordinates.
    package var window: Rect
    /// The keyboard's frame in screen coordinates; nil: none.
    package var keyboard: Rect?
    /// The reserved band in screen coordinates; nil: nothing reserved.
    package var reservedBand: Rect?
    /// The reserved inset in points, for the legend.
    package var reservedInset: Double
    /// The focused field's frame in screen coordinates, before the slide; nil: none.
    package var focused: Rect?
    /// How far the focused field slides up, in points.
    package var slide: Double = 0
    /// Grid width in characters (clamped to 1...1000).
    package var columns: Int
    /// Grid height in lines (clamped to 1...1000).
    package var rows: Int
    /// Whether to add ANSI colour escapes.
    package var usesColor: Bool

    /// Creates a picture from explicit rectangles.
    package init(
        screen: Size,
        window: Rect,
        keyboard: Rect? = nil,
        reservedBand: Rect? = nil,
        reservedInset: Double = 0,
        columns: Int = 60,
        rows: Int = 24,
        usesColor: Bool = false
    ) {
        self.screen = screen
        self.window = window
        self.keyboard = keyboard
        self.reservedBand = reservedBand
        self.reservedInset = reservedInset
        self.columns = columns
        self.rows = rows
        self.usesColor = usesColor
    }

    /// Draws a request and its answer: the band is the reserved inset just above the view's bottom safe area.
    package init(request: InsetRequest, answer: InsetAnswer, columns: Int = 60, rows: Int = 24, usesColor: Bool = false)
    {
        var band: Rect?
        var focused: Rect?
        if let id = request.focusedField, let field = request.fields.first(where: { $0.id == id }) {
            focused = request.geometry.convertToScreen(field.frame)
        }
        if answer.reservedInset > 0 {
            let view = request.geometry.effectiveViewBounds
            let bottom = view.maxY - request.safeAreaBottom
            let inView = Rect(
                x: view.minX,
                y: bottom - answer.reservedInset,
                width: view.width,
                height: answer.reservedInset
            )
            band = request.geometry.convertToScreen(inView)
        }
        self.init(
            screen: request.screen,
            window: request.window,
            keyboard: answer.keyboardFrame,
            reservedBand: band,
            reservedInset: answer.reservedInset,
            columns: columns,
            rows: rows,
            usesColor: usesColor
        )
        self.focused = focused
        self.slide = answer.slide
    }

    /// A grid size for a screen in a terminal `columns` wide (0: not a terminal, 60 columns): the picture takes
    /// the width, at most 160 columns, and as many lines as the screen's shape needs (a cell is twice as tall as
    /// wide), between 6 and 60.
    package static func size(fitting columns: Int, screen: Size) -> (columns: Int, rows: Int) {
        let width = Swift.min(Swift.max(columns > 0 ? columns - 1 : 60, 20), 160)
        guard screen.isValid, screen.width > 0, screen.height > 0 else { return (width, 24) }
        let rows = Int((Double(width) * screen.height / screen.width / 2).rounded(.up))
        return (width, Swift.min(Swift.max(rows, 6), 60))
    }

    /// What a cell shows.
    enum Cell: Equatable, Sendable {
        case outside, screen, window, keyboard, band, cornerEdge, horizontalEdge, verticalEdge, focused, slidFrom

        var character: Character {
            switch self {
            case .outside, .window: return " "
            case .screen: return "."
            case .keyboard: return "%"
            case .band: return "="
            case .cornerEdge: return "+"
            case .horizontalEdge: return "-"
            case .verticalEdge: return "|"
            case .focused: return "#"
            case .slidFrom: return ":"
            }
        }

        /// The ANSI colour (SGR parameters), nil for the terminal's default.
        var color: String? {
            switch self {
            case .outside, .window: return nil
            case .screen: return "2"  // dim
            case .keyboard: return "34"  // blue
            case .band: return "33"  // yellow
            case .cornerEdge, .horizontalEdge, .verticalEdge: return "1"  // bold
            case .focused: return "32"  // green
            case .slidFrom: return "2"
            }
        }
    }

    /// The grid, `rows` lines of at most `columns` characters, without colour or trailing spaces.
    package var lines: [String] {
        Self.withoutBlankTail(cells).map { Self.plain(Self.trimmed($0)) }
    }

    /// The grid and the legend, lines joined by newlines (no trailing newline); coloured with `usesColor`.
    package func render() -> String {
        var output = Self.withoutBlankTail(cells).map {
            usesColor ? Self.colored(Self.trimmed($0)) : Self.plain(Self.trimmed($0))
        }
        output.append(legend)
        return output.joined(separator: "\n")
    }

    /// The legend line: the numbers drawn, as the answer gives them.
    package var legend: String {
        var text = ". screen  +-| window  % keyboard  = reserved \(PointFormat.text(reservedInset)) pt"
        if focused != nil {
            text += "  # focused field" + (slide > 0 ? " (slid up \(PointFormat.text(slide)) pt from :)" : "")
        }
        return text
    }

    private static func plain(_ row: [Cell]) -> String { String(row.map(\.character)) }

    /// The rows without the blank ones below the drawing.
    private static func withoutBlankTail(_ rows: [[Cell]]) -> [[Cell]] {
        Array(rows[..<(rows.lastIndex { !trimmed($0).isEmpty }.map { $0 + 1 } ?? 0)])
    }

    /// The row without the blank cells at its end.
    private static func trimmed(_ row: [Cell]) -> [Cell] {
        Array(row[..<(row.lastIndex { $0.character != " " }.map { $0 + 1 } ?? 0)])
    }

    /// The grid as cells.
    var cells: [[Cell]] {
        let width = Swift.max(1, Swift.min(columns, 1000))
        let height = Swift.max(1, Swift.min(rows, 1000))
        var grid = Array(repeating: Array(repeating: Cell.outside, count: width), count: height)
        guard screen.isValid, screen.width > 0, screen.height > 0 else { return grid }
        // Points per column; a row is twice as tall. Large enough that the screen fits both ways.
        let pointsPerColumn = Swift.max(screen.width / Double(width), screen.height / (2 * Double(height)))
        let scale = Scale(pointsPerColumn: pointsPerColumn, columns: width, rows: height)

        fill(&grid, scale.cells(for: Rect(origin: .zero, size: screen)), with: .screen)
        let windowCells = scale.cells(for: window)
        fill(&grid, windowCells, with: .window)
        if let keyboard { fill(&grid, scale.cells(for: keyboard), with: .keyboard) }
        if let reservedBand { fill(&grid, scale.cells(for: reservedBand), with: .band) }
        if let windowCells { outline(&grid, windowCells) }
        if let focused {
            let moved = Rect(x: focused.minX, y: focused.minY - slide, width: focused.width, height: focused.height)
            if slide > 0 { fill(&grid, scale.cells(for: focused), with: .slidFrom) }
            fill(&grid, scale.cells(for: moved), with: .focused)
        }
        return grid
    }

    /// A range of cells: columns `left..<right`, rows `top..<bottom`, all within the grid.
    struct CellRange: Equatable {
        var left: Int, right: Int, top: Int, bottom: Int
    }

    /// Maps points to cells, rounding to the nearest cell edge; any rectangle with area takes at least one cell.
    struct Scale {
        let pointsPerColumn: Double
        let columns: Int
        let rows: Int

        func cells(for rect: Rect) -> CellRange? {
            guard rect.isFinite, !rect.isEmpty else { return nil }
            let pointsPerRow = pointsPerColumn * 2
            var left = Self.index(rect.minX / pointsPerColumn, limit: columns)
            var right = Self.index(rect.maxX / pointsPerColumn, limit: columns)
            var top = Self.index(rect.minY / pointsPerRow, limit: rows)
            var bottom = Self.index(rect.maxY / pointsPerRow, limit: rows)
            // Visible but thinner than a cell: widen to one cell, inside the grid.
            if right == left && rect.maxX > 0 && rect.minX < Double(columns) * pointsPerColumn {
                if right < columns { right += 1 } else { left -= 1 }
            }
            if bottom == top && rect.maxY > 0 && rect.minY < Double(rows) * pointsPerRow {
                if bottom < rows { bottom += 1 } else { top -= 1 }
            }
            guard right > left, bottom > top else { return nil }
            return CellRange(left: left, right: right, top: top, bottom: bottom)
        }

        /// `value` rounded to the nearest whole cell and clamped to `0...limit`, safe for any Double.
        static func index(_ value: Double, limit: Int) -> Int {
            guard value > 0 else { return 0 }  // also NaN
            guard value < Double(limit) else { return limit }
            return Swift.min(limit, Int(value.rounded()))
        }
    }

    private func fill(_ grid: inout [[Cell]], _ range: CellRange?, with cell: Cell) {
        guard let range else { return }
        for row in range.top..<range.bottom {
            for column in range.left..<range.right { grid[row][column] = cell }
        }
    }

    private func outline(_ grid: inout [[Cell]], _ range: CellRange) {
        let lastRow = range.bottom - 1
        let lastColumn = range.right - 1
        for column in range.left...lastColumn {
            grid[range.top][column] = .horizontalEdge
            grid[lastRow][column] = .horizontalEdge
        }
        for row in range.top...lastRow {
            grid[row][range.left] = .verticalEdge
            grid[row][lastColumn] = .verticalEdge
        }
        let corners = [(range.top, range.left), (range.top, lastColumn), (lastRow, range.left), (lastRow, lastColumn)]
        for (row, column) in corners {
            grid[row][column] = .cornerEdge
        }
    }

    /// One row with an escape at each change of colour and a reset at the end.
    private static func colored(_ row: [Cell]) -> String {
        var text = ""
        var current: String?
        for cell in row {
            if cell.color != current {
                text += "\u{1B}[0m"
                if let color = cell.color { text += "\u{1B}[\(color)m" }
                current = cell.color
            }
            text.append(cell.character)
        }
        if current != nil { text += "\u{1B}[0m" }
        return text
    }
}
