/// An axis-aligned rectangle in points: an origin (top-left corner, y grows downwards) and a size.
///
/// Sizes are expected not to be negative (the edges validate them); a rectangle with a negative or zero
/// dimension covers no area and intersects nothing.
package struct Rect: Equatable, Hashable, Sendable {
    /// The top-left corner.
    package var origin: Point
    /// The width and height.
    package var size: Size

    /// Creates a rectangle from its origin and size.
    package init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its four numbers.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle whose four numbers are all zero (what iOS sends for a floating keyboard it will not place).
    package static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    package var minX: Double { origin.x }
    /// The top edge.
    package var minY: Double { origin.y }
    /// The right edge.
    package var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    package var maxY: Double { origin.y + size.height }
    /// The width.
    package var width: Double { size.width }
    /// The height.
    package var height: Double { size.height }

    /// Whether all four numbers are zero (not merely an empty area).
    package var isZero: Bool { origin.x == 0 && origin.y == 0 && size.width == 0 && size.height == 0 }

    /// Whether the rectangle covers no area: a width or height that is zero, negative or NaN.
    package var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// Whether all four numbers are finite.
    package var isFinite: Bool { origin.isFinite && size.isFinite }

    /// The same rectangle moved by `dx`, `dy`.
    package func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// The area both rectangles cover, or nil when they share no area (touching edges share none).
    package func intersection(_ other: Rect) -> Rect? {
        // Swift's min and max drop a NaN operand, so NaN is refused first (a NaN size counts as empty).
        guard !isEmpty, !other.isEmpty else { return nil }
        guard !(origin.x.isNaN || origin.y.isNaN || other.origin.x.isNaN || other.origin.y.isNaN) else { return nil }
        let left = Swift.max(minX, other.minX)
        let right = Swift.min(maxX, other.maxX)
        let top = Swift.max(minY, other.minY)
        let bottom = Swift.min(maxY, other.maxY)
        guard right > left, bottom > top else { return nil }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the rectangles share some area.
    package func intersects(_ other: Rect) -> Bool { intersection(other) != nil }

    /// Whether `point` lies inside (left and top edges included, right and bottom excluded).
    package func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// The rectangle shrunk by `insets` (a dimension never goes below zero).
    package func inset(by insets: Insets) -> Rect {
        Rect(
            x: origin.x + insets.left,
            y: origin.y + insets.top,
            width: Swift.max(0, size.width - insets.left - insets.right),
            height: Swift.max(0, size.height - insets.top - insets.bottom)
        )
    }
}
