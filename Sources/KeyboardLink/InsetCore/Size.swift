/// A width and a height in points.
package struct Size: Equatable, Hashable, Sendable {
    /// Width in points.
    package var width: Double
    /// Height in points.
    package var height: Double

    /// Creates a size from its width and height.
    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The empty size `0 x 0`.
    package static let zero = Size(width: 0, height: 0)

    /// Whether both dimensions are finite numbers (not NaN, not infinite).
    package var isFinite: Bool { width.isFinite && height.isFinite }

    /// Whether both dimensions are finite and not negative: what every size coming from outside must be.
    package var isValid: Bool { isFinite && width >= 0 && height >= 0 }
}
