/// Holds "a hardware keyboard is attached" for a grace period after the last keyboard went away, so that a
/// keyboard that sleeps or drops its link for a moment does not make on-screen keyboards flicker.
///
/// Feed it each new evaluation with ``update(_:now:)``; it answers what to publish and, while it holds, when to
/// ask again. Attaching is never delayed, and a keyboard that leaves while another stays changes the list at once:
/// only the step from "some keyboard" to "none" waits.
package struct PresenceGrace: Sendable {
    /// How long "attached" outlives the last keyboard; zero publishes every change at once.
    package var period: Duration
    /// The last result that had a keyboard, while it can still be held.
    private var lastAttached: PresenceResult?
    /// When the hold started ends, while holding.
    private var deadline: ContinuousClock.Instant?

    /// A grace period of `period`.
    package init(period: Duration) {
        self.period = period
    }

    /// What to publish for `result`.
    /// - Returns: the result to publish (the last one with a keyboard, its reasons saying it is held, while the
    ///   grace period runs) and, while holding, when to call again.
    package mutating func update(_ result: PresenceResult, now: ContinuousClock.Instant) -> (
        published: PresenceResult, wakeAt: ContinuousClock.Instant?
    ) {
        if result.hardwareKeyboardAttached || period <= .zero {
            lastAttached = result.hardwareKeyboardAttached ? result : nil
            deadline = nil
            return (result, nil)
        }
        guard let held = lastAttached else { return (result, nil) }
        let end = deadline ?? now + period
        guard now < end else {
            lastAttached = nil
            deadline = nil
            return (result, nil)
        }
        deadline = end
        let holding = Self.describe(period)
        var reasons = held.keyboards.map {
            HardwareKeyboardReason(
                counting: $0, reason: "gone; still counted for the \(holding) grace period ([Presence] GracePeriod)")
        }
        reasons += result.reasons.filter { reason in !held.keyboards.contains { $0.id == reason.id } }
        return (PresenceResult(keyboards: held.keyboards, reasons: reasons), end)
    }

    /// Whether the last result published is held.
    package var isHolding: Bool { deadline != nil }

    /// `5 s`, `1.5 s`, `250 ms`.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
