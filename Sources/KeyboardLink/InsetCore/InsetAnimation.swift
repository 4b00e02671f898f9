/// How the reserved inset moves from its previous value to its new one.
package struct InsetAnimation: Equatable, Sendable {
    /// The inset when the animation starts (the previous reserved inset).
    package var from: Double
    /// The inset when it ends (the new reserved inset).
    package var to: Double
    /// Seconds; 0 means the new value applies at once.
    package var duration: Double
    /// The curve, as the event carried it.
    package var curve: AnimationCurve

    /// Creates an animation.
    package init(from: Double, to: Double, duration: Double, curve: AnimationCurve) {
        self.from = from
        self.to = to
        self.duration = duration
        self.curve = curve
    }

    /// Whether the new value applies at once.
    package var isImmediate: Bool { !(duration > 0) }

    /// The inset `elapsed` seconds after the start: `from + (to - from) * f(elapsed / duration)`; `from` before
    /// the start, `to` from the end on (and for a NaN time).
    package func value(at elapsed: Double) -> Double {
        guard !isImmediate, !elapsed.isNaN else { return to }
        if elapsed <= 0 { return from }
        if elapsed >= duration { return to }
        return from + (to - from) * curve.timing.progress(elapsed / duration)
    }
}
