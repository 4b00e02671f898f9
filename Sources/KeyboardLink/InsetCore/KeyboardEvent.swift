/// One keyboard notification as the layout core sees it; frames are in screen coordinates.
public struct KeyboardEvent: Equatable, Sendable {
    /// Which notification this is.
    public var kind: KeyboardEventKind
    /// Where the keyboard starts, in screen coordinates (informational: the rules use the end frame).
    public var beginFrame: Rect
    /// Where the keyboard ends, in screen coordinates.
    public var endFrame: Rect
    /// The animation's duration in seconds; 0 means "at once" on hide and 0.25 s otherwise.
    public var duration: Double
    /// The animation's curve (opaque: iOS sends 7).
    public var curve: AnimationCurve
    /// Whether the keyboard belongs to this app (false: another app's keyboard, which still covers us).
    public var isLocal: Bool
    /// The screen the notification names; another screen than the window's means no overlap.
    public var screen: ScreenID

    /// Creates an event; everything but the kind and end frame has the usual iOS value.
    public init(
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
