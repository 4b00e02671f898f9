/// The animation curve an event carries: an opaque integer, as in iOS's `UIKeyboardAnimationCurveUserInfoKey`.
///
/// iOS sends 7 for the keyboard, a value `UIView.AnimationCurve` has no case for, so this is a wrapper around
/// the raw number rather than an enum: never switch exhaustively over it. Known values map to a `TimingCurve`;
/// any unknown value animates with ease-in-out.
package struct AnimationCurve: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The number as sent by the system.
    package let rawValue: Int

    /// Wraps any number; unknown values are kept as they are (and animate with ease-in-out).
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// 0: `UIViewAnimationCurveEaseInOut`.
    package static let easeInOut = AnimationCurve(rawValue: 0)
    /// 1: `UIViewAnimationCurveEaseIn`.
    package static let easeIn = AnimationCurve(rawValue: 1)
    /// 2: `UIViewAnimationCurveEaseOut`.
    package static let easeOut = AnimationCurve(rawValue: 2)
    /// 3: `UIViewAnimationCurveLinear`.
    package static let linear = AnimationCurve(rawValue: 3)
    /// 7: the keyboard's own, undocumented curve.
    package static let keyboard = AnimationCurve(rawValue: 7)

    /// The timing function this curve animates with.
    ///
    /// The keyboard's curve 7 is, as developers who inspected UIKit report, a heavily damped spring (a
    /// `CASpringAnimation` with mass 3, stiffness 1000, damping 500) run for about 0.5 s whatever the event says. A
    /// spring does not end exactly at the event's duration, and our animation must (it ends at the target), so
    /// we use ease-in-out for 7: a symmetric curve that starts and ends at rest like the spring does. This is a
    /// documented choice, kept in this one place.
    package var timing: TimingCurve {
        switch rawValue {
        case 1: return .easeIn
        case 2: return .easeOut
        case 3: return .linear
        default: return .easeInOut  // 0, 7 (the keyboard) and every unknown value
        }
    }

    /// The curve's name for people: `easeInOut`, `easeIn`, `easeOut`, `linear`, `keyboard`, or `unknown(N)`.
    package var name: String {
        switch rawValue {
        case 0: return "easeInOut"
        case 1: return "easeIn"
        case 2: return "easeOut"
        case 3: return "linear"
        case 7: return "keyboard"
        default: return "unknown(\(rawValue))"
        }
    }

    package var description: String { "\(rawValue) (\(name))" }
}
