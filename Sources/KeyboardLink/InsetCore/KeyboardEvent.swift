/// One keyboard notification as the layout core sees it; frames are in screen coordinates.
package struct KeyboardEvent: Equatable, Sendable {
    /// Which notification this is.
    package var kind: KeyboardEventKind
    /// Where the keyboard starts, in screen coordinates (informational: the rules use the end frame).
    package var beginFrame: Rect
    /// Where the keyboard ends, in screen coordinates.
    package var endFrame: Rect
    /// The animation's duration in seconds; 0 means "at once" on hide and 0.25 s otherwise.
    package var duration: Double
    /// The animation's curve (opaque: iOS sends 7).
    package var curve: AnimationCurve
    /// Whether the keyboard belongs to this app (false: another app's keyboard, which still covers us).
    package var isLocal: Bool
    /// The screen the notification names; another screen than the window's means no overlap.
    package var screen: ScreenID

    /// Creates an event; everything but the kind and end frame has the usual iOS value.
    package init(
        kind: KeyboardEventKind,
        beginFrame: Rect = .zero,
        endFrame: Rect,
        duration: Double = 0.25,
        curve: AnimationCurve = .keyboard,
        isLocal: Bool = true,
        screen: ScreenID = .main
    ) {
        self.kind = kind
        self.beginFrame = beginFrame
        self.endFrame = endFrame
        self.duration = duration
        self.curve = curve
        self.isLocal = isLocal
        self.screen = screen
    }
}
