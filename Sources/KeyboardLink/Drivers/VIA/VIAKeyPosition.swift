/// A key in VIA's dynamic keymap: layer, matrix row and matrix column.
package struct VIAKeyPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The layer index.
    package var layer: UInt8
    /// The matrix row.
    package var row: UInt8
    /// The matrix column.
    package var column: UInt8

    /// Creates a position.
    package init(layer: UInt8, row: UInt8, column: UInt8) {
        self.layer = layer
        self.row = row
        self.column = column
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.layer, lhs.row, lhs.column) < (rhs.layer, rhs.row, rhs.column)
    }

    package var description: String { "layer \(layer) row \(row) column \(column)" }
}
