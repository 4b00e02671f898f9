/// Distances in points from the four edges of a rectangle inwards (a safe area, a padding).
package struct Insets: Equatable, Hashable, Sendable {
    /// Distance from the top edge.
    package var top: Double
    /// Distance from the left edge.
    package var left: Double
    /// Distance from the bottom edge.
    package var bottom: Double
    /// Distance from the right edge.
    package var right: Double

    /// Creates insets; every edge defaults to 0.
    package init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No inset on any edge.
    package static let zero = Insets()

    /// Whether all four distances are finite numbers.
    package var isFinite: Bool { top.isFinite && left.isFinite && bottom.isFinite && right.isFinite }
}
