/// A width and a height in points.
public struct Size: Equatable, Hashable, Sendable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    /// Creates a size from its width and height.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The empty size `0 x 0`.
    public static let zero = Size(width: 0, height: 0)

    /// Whether both dimensions are finite numbers (not NaN, not infinite).
    public var isFinite: Bool { width.isFinite && height.isFinite }

    /// Whether both dimensions are finite and not negative: what every size coming from outside must be.
    public var isValid: Bool { isFinite && width >= 0 && height >= 0 }
}
