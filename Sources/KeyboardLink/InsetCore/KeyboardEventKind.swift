/// Which keyboard notification an event stands for (iOS's `UIKeyboardWillShow`, `WillChangeFrame`,
/// `WillHide`, `DidHide`).
package enum KeyboardEventKind: String, CaseIterable, Equatable, Hashable, Sendable {
    /// The keyboard is about to appear.
    case willShow
    /// The keyboard's frame is about to change (move, resize, undock, interactive dismissal).
    case willChangeFrame
    /// The keyboard is about to disappear.
    case willHide
    /// The keyboard has disappeared.
    case didHide

    /// Whether the event announces that the keyboard goes away.
    package var isHide: Bool { self == .willHide || self == .didHide }
}
