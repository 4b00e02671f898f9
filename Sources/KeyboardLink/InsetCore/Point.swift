/// A position in points (screen, window or view coordinates; y grows downwards, as on iOS).
public struct Point: Equatable, Hashable, Sendable {
    /// Horizontal position in points.
    public var x: Double
    /// Vertical position in points, growing downwards.
    public var y: Double

    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin `(0, 0)`.
    public static let zero = Point(x: 0, y: 0)

    /// Whether both coordinates are finite numbers (not NaN, not infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }
}
