/// Everything the layout core answers for one window: what the daemon returns and the CLI prints.
package struct InsetAnswer: Equatable, Sendable {
    /// The keyboard's mode.
    package var mode: KeyboardMode
    /// What was done with the last event; nil when there was none.
    package var disposition: EventDisposition?
    /// Points of the view's height the keyboard covers (after the hardware-keyboard and locality rules).
    package var overlap: Double
    /// The space to reserve above the bottom safe area.
    package var reservedInset: Double
    /// The keyboard layout guide in view coordinates.
    package var guideFrame: Rect
    /// The y (view coordinates) below which a downward drag dismisses the keyboard.
    package var dismissThreshold: Double
    /// How far to slide the content up to keep the focused field visible.
    package var slide: Double
    /// The animation to run; nil when the inset did not change.
    package var animation: InsetAnimation?
    /// Whether a hardware keyboard was taken as attached.
    package var hardwareKeyboardAttached: Bool
    /// Where the keyboard is, in screen coordinates; nil while hidden.
    package var keyboardFrame: Rect?
    /// The view edges the guide is near.
    package var nearEdges: Set<Edge>

    /// Creates an answer; normally obtained from `KeyboardLayoutState.answer` or `InsetResolver.resolve(_:)`.
    package init(
        mode: KeyboardMode,
        disposition: EventDisposition?,
        overlap: Double,
        reservedInset: Double,
        guideFrame: Rect,
        dismissThreshold: Double,
        slide: Double,
        animation: InsetAnimation?,
        hardwareKeyboardAttached: Bool,
        keyboardFrame: Rect?,
        nearEdges: Set<Edge>
    ) {
        self.mode = mode
        self.disposition = disposition
        self.overlap = overlap
        self.reservedInset = reservedInset
        self.guideFrame = guideFrame
        self.dismissThreshold = dismissThreshold
        self.slide = slide
        self.animation = animation
        self.hardwareKeyboardAttached = hardwareKeyboardAttached
        self.keyboardFrame = keyboardFrame
        self.nearEdges = nearEdges
    }

    /// The guide's top in view coordinates.
    package var guideTop: Double { guideFrame.minY }

    /// The guide's height.
    package var guideHeight: Double { guideFrame.height }

    /// The reserved inset `elapsed` seconds into the animation (the settled value when nothing animates).
    package func inset(at elapsed: Double) -> Double {
        animation?.value(at: elapsed) ?? reservedInset
    }
}
