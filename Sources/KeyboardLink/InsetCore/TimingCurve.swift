/// A CSS/Core Animation style cubic Bézier timing function from (0, 0) to (1, 1) through two control points.
///
/// Maps the elapsed fraction of an animation to the fraction of the change to show.
package struct TimingCurve: Equatable, Hashable, Sendable {
    /// The first control point's x (time), within 0...1.
    package let x1: Double
    /// The first control point's y (progress).
    package let y1: Double
    /// The second control point's x (time), within 0...1.
    package let x2: Double
    /// The second control point's y (progress).
    package let y2: Double

    /// Creates a curve from its control points; x values are clamped to 0...1 so that time never runs backwards.
    package init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = Self.unit(x1)
        self.y1 = y1.isFinite ? y1 : 0
        self.x2 = Self.unit(x2)
        self.y2 = y2.isFinite ? y2 : 1
    }

    /// Straight line: progress equals time.
    package static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)
    /// Slow start and end (`kCAMediaTimingFunctionEaseInEaseOut`).
    package static let easeInOut = TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    /// Slow start (`kCAMediaTimingFunctionEaseIn`).
    package static let easeIn = TimingCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)
    /// Slow end (`kCAMediaTimingFunctionEaseOut`).
    package static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)

    /// The progress (0 at the start, 1 at the end) after `fraction` of the duration; clamped to 0...1 in time.
    package func progress(_ fraction: Double) -> Double {
        guard fraction > 0 else { return fraction.isNaN ? 1 : 0 }
        guard fraction < 1 else { return 1 }
        if x1 == y1 && x2 == y2 { return fraction }  // a straight line: exact, and fast
        return bezier(solveParameter(forX: fraction), y1, y2)
    }

    /// One coordinate of the Bézier at parameter `t` with end points 0 and 1.
    private func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    /// Derivative of the x coordinate at parameter `t`.
    private func slopeX(_ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * x1 + 6 * u * t * (x2 - x1) + 3 * t * t * (1 - x2)
    }

    /// The parameter whose x is `x`: a few Newton steps, then bisection when the slope is too flat.
    /// x(t) is monotonic because both control x values lie within 0...1.
    private func solveParameter(forX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = bezier(t, x1, x2) - x
            if abs(error) < 1e-9 { return t }
            let slope = slopeX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<60 {
            let value = bezier(t, x1, x2)
            if abs(value - x) < 1e-9 { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }

    private static func unit(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return Swift.min(1, Swift.max(0, value))
    }
}
