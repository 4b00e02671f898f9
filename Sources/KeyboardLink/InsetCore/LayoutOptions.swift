/// The knobs of the layout core; the defaults follow `UIKeyboardLayoutGuide` and layout-core.md.
package struct LayoutOptions: Equatable, Sendable {
    /// Track a floating (undocked) keyboard: its overlap is reserved and the guide takes its frame.
    package var followsUndockedKeyboard: Bool
    /// While no keyboard is tracked, the guide still covers the bottom safe area.
    package var usesBottomSafeArea: Bool
    /// Extra distance above the guide at which a downward drag starts dismissing the keyboard; negatives count
    /// as 0.
    package var keyboardDismissPadding: Double
    /// The tallest overlap (points) that still counts as a shortcut/assistant bar when a hardware keyboard is
    /// attached.
    package var accessoryBarMax: Double
    /// Reserve the shortcut bar's space even with a hardware keyboard (what iOS does, and what leaves a gap).
    package var reserveAccessoryBar: Bool
    /// Only this app's own keyboard (`isLocal`) reserves space.
    package var isLocalOnly: Bool
    /// How close (points) the guide must come to a view edge to count as near it. Our choice: 20 pt, about the
    /// height of a status bar; UIKit does not publish its value.
    package var nearEdgeThreshold: Double
    /// Room (points) the guardian keeps between the focused field and the guide.
    package var guardianMargin: Double

    /// Creates options; every parameter defaults to the documented default.
    package init(
        followsUndockedKeyboard: Bool = false,
        usesBottomSafeArea: Bool = true,
        keyboardDismissPadding: Double = 0,
        accessoryBarMax: Double = 80,
        reserveAccessoryBar: Bool = false,
        isLocalOnly: Bool = false,
        nearEdgeThreshold: Double = 20,
        guardianMargin: Double = 10
    ) {
        self.followsUndockedKeyboard = followsUndockedKeyboard
        self.usesBottomSafeArea = usesBottomSafeArea
        self.keyboardDismissPadding = keyboardDismissPadding
        self.accessoryBarMax = accessoryBarMax
        self.reserveAccessoryBar = reserveAccessoryBar
        self.isLocalOnly = isLocalOnly
        self.nearEdgeThreshold = nearEdgeThreshold
        self.guardianMargin = guardianMargin
    }

    /// The dismiss padding actually applied: never negative.
    package var effectiveDismissPadding: Double { Swift.max(0, keyboardDismissPadding) }
}
