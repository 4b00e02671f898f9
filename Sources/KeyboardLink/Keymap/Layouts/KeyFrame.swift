/// Where a key sits on the keyboard, in key units (1 = the width of a letter key), y growing downwards.
package struct KeyFrame: Hashable, Sendable, Codable {
    /// Left edge.
    package var x: Double
    /// Top edge.
    package var y: Double
    /// Width.
    package var width: Double
    /// Height.
    package var height: Double

    /// Creates a frame; width and height default to one key unit.
    package init(x: Double, y: Double, width: Double = 1, height: Double = 1) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether two frames share area (touching edges do not count).
    package func overlaps(_ other: KeyFrame) -> Bool {
        let epsilon = 1e-6
        return x + width - epsilon > other.x && other.x + other.width - epsilon > x
            && y + height - epsilon > other.y && other.y + other.height - epsilon > y
    }

    private enum CodingKeys: String, CodingKey {
        case x, y
        case width = "w"
        case height = "h"
    }
}

/// A key's place in the keyboard's switch matrix, as firmware addresses it (VIA's row and column).
package struct MatrixPosition: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Matrix row.
    package var row: Int
    /// Matrix column.
    package var column: Int

    /// Creates a matrix position.
    package init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    package static func < (lhs: MatrixPosition, rhs: MatrixPosition) -> Bool {
        (lhs.row, lhs.column) < (rhs.row, rhs.column)
    }

    package var description: String { "\(row),\(column)" }

    private enum CodingKeys: String, CodingKey {
        case row
        case column = "col"
    }
}
