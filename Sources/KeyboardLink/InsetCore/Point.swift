/// A position in points (screen, window or view coordinates; y grows downwards, as on iOS).
package struct Point: Equatable, Hashable, Sendable {
    /// Horizontal position in points.
    package var x: Double
    /// Vertical position in points, growing downwards.
    package var y: Double

    /// Creates a point from its coordinates.
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin `(0, 0)`.
    package static let zero = Point(x: 0, y: 0)

    /// Whether both coordinates are finite numbers (not NaN, not infinite).
    package var isFinite: Bool { x.isFinite && y.isFinite }
}
