/// Where a key sits on the keyboard, in key units (1 = the width of a letter key), y growing downwards.
public struct KeyFrame: Hashable, Sendable, Codable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// Creates a frame; width and height default to one key unit.
    public init(x: Double, y: Double, width: Double = 1, height: Double = 1) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether two frames share area (touching edges do not count).
    public func overlaps(_ other: KeyFrame) -> Bool {
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
public struct MatrixPosition: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Matrix row.
    public var row: Int
    /// Matrix column.
    public var column: Int

    /// Creates a matrix position.
    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    public static func < (lhs: MatrixPosition, rhs: MatrixPosition) -> Bool {
        (lhs.row, lhs.column) < (rhs.row, rhs.column)
    }

    public var description: String { "\(row),\(column)" }

    private enum CodingKeys: String, CodingKey {
        case row
        case column = "col"
    }
}
