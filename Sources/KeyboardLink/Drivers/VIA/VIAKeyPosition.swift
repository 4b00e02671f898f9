/// A key in VIA's dynamic keymap: layer, matrix row and matrix column.
public struct VIAKeyPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The layer index.
    public var layer: UInt8
    /// The matrix row.
    public var row: UInt8
    /// The matrix column.
    public var column: UInt8

    /// Creates a position.
    public init(layer: UInt8, row: UInt8, column: UInt8) {
        self.layer = layer
        self.row = row
        self.column = column
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.layer, lhs.row, lhs.column) < (rhs.layer, rhs.row, rhs.column)
    }

    public var description: String { "layer \(layer) row \(row) column \(column)" }
}
