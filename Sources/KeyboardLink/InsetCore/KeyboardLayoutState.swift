/// The layout core's state machine: consumes keyboard events and the other inputs one at a time and answers how
/// much of the view the soft keyboard takes, where the keyboard layout guide is, and how the change animates.
///
/// Implements the rules of layout-core.md (the rule numbers below refer to it). Every input is a `mutating`
/// method that recomputes the answer at once and returns the animation to run, if the reserved inset changed.
/// The state has no clock: an animation starts from the previous reserved inset (the previous target), and
/// `inset(at:)` samples it at a time the caller measures.
package struct KeyboardLayoutState: Equatable, Sendable {
    /// The window, view and safe area the answers are for.
    package private(set) var geometry: WindowGeometry
    /// The options in force.
    package private(set) var options: LayoutOptions
    /// Whether a hardware keyboard is attached (rule 5).
    package private(set) var hardwareKeyboardAttached: Bool
    /// The keyboard's mode after the last applied event (rule 3).
    package private(set) var mode: KeyboardMode = .hidden
    /// The last applied event (its end frame is where the keyboard is); nil before any event was applied.
    package private(set) var keyboard: KeyboardEvent?
    /// What was done with the last event; nil before any event.
    package private(set) var lastDisposition: EventDisposition?
    /// How many points of the view's height the keyboard covers, after rules 4, 5 and 11.
    package private(set) var overlap: Double = 0
    /// The space to reserve at the bottom, above the safe area: `max(0, overlap - SB)` (rule 6).
    package private(set) var reservedInset: Double = 0
    /// The keyboard layout guide in view coordinates (rule 7).
    package private(set) var guideFrame: Rect
    /// Whether the answer follows a keyboard (docked, or floating with `followsUndockedKeyboard`) that counts.
    package private(set) var isTrackingKeyboard = false
    /// The animation the last input asks for; nil when the reserved inset did not change.
    package private(set) var animation: InsetAnimation?
    /// The text fields the guardian knows about, in registration order.
    package private(set) var fields: [GuardedField] = []
    /// The field the guardian keeps visible; only this one counts (rule 9).
    package private(set) var focusedField: FieldID?
    /// The highest y (view coordinates) the guardian may slide a field's top to.
    package private(set) var guardianTopLimit: Double = 0
    /// How far to slide the content up so that the focused field stays above the guide (rule 9).
    package private(set) var slide: Double = 0
    /// The focused field's frame, looked up once per focus or registration change rather than once per event.
    private var focusedFrame: Rect?
    /// Where each field is in `fields`, so that registering and focusing find a field in constant time: a request
    /// with many fields costs what it carries, not its square.
    private var fieldIndex: [FieldID: Int] = [:]

    /// Creates the state with the keyboard hidden.
    package init(
        geometry: WindowGeometry,
        options: LayoutOptions = LayoutOptions(),
        hardwareKeyboardAttached: Bool = false
    ) {
        self.geometry = geometry
        self.options = options
        self.hardwareKeyboardAttached = hardwareKeyboardAttached
        self.guideFrame = .zero
        recompute()
    }

    // MARK: - Derived answers

    /// The guide's top in view coordinates.
    package var guideTop: Double { guideFrame.minY }

    /// The guide's height.
    package var guideHeight: Double { guideFrame.height }

    /// The y (view coordinates) below which a downward drag dismisses the keyboard (rule 8).
    package var dismissThreshold: Double { guideFrame.minY - options.effectiveDismissPadding }

    /// The reserved inset `elapsed` seconds after the last input; the settled value when nothing animates.
    package func inset(at elapsed: Double) -> Double {
        animation?.value(at: elapsed) ?? reservedInset
    }

    /// Whether the guide lies within `nearEdgeThreshold` of the view's `edge` (or beyond it).
    package func isNear(_ edge: Edge) -> Bool {
        let view = geometry.effectiveViewBounds
        let distance: Double
        switch edge {
        case .top: distance = guideFrame.minY - view.minY
        case .bottom: distance = view.maxY - guideFrame.maxY
        case .left: distance = guideFrame.minX - view.minX
        case .right: distance = view.maxX - guideFrame.maxX
        }
        return distance <= Swift.max(0, options.nearEdgeThreshold)
    }

    /// Whether the guide is away from the view's `edge`: the opposite of `isNear(_:)`.
    package func isAway(from edge: Edge) -> Bool { !isNear(edge) }

    /// The edges the guide is near.
    package var nearEdges: Set<Edge> { Set(Edge.allCases.filter(isNear)) }

    /// Everything the state answers, as one value.
    package var answer: InsetAnswer {
        InsetAnswer(
            mode: mode,
            disposition: lastDisposition,
            overlap: overlap,
            reservedInset: reservedInset,
            guideFrame: guideFrame,
            dismissThreshold: dismissThreshold,
            slide: slide,
            animation: animation,
            hardwareKeyboardAttached: hardwareKeyboardAttached,
            keyboardFrame: mode == .hidden ? nil : keyboard?.endFrame,
            nearEdges: nearEdges
        )
    }

    // MARK: - Inputs

    /// Applies one keyboard event (rules 1 to 11) and returns the animation to run, nil when the reserved inset
    /// stays the same or the event was ignored; `lastDisposition` says which.
    @discardableResult
    package mutating func consume(_ event: KeyboardEvent) -> InsetAnimation? {
        if let reason = ignoreReason(for: event) {
            lastDisposition = .ignored(reason)
            animation = nil
            return nil
        }
        let previous = reservedInset
        mode = classify(event)
        keyboard = event
        lastDisposition = .applied
        recompute()
        animation = eventAnimation(from: previous, event: event)
        return animation
    }

    /// Records whether a hardware keyboard is attached; the answer changes at once (no animation time).
    @discardableResult
    package mutating func setHardwareKeyboardAttached(_ attached: Bool) -> InsetAnimation? {
        hardwareKeyboardAttached = attached
        return recomputeAtOnce()
    }

    /// Replaces the whole geometry (screen, window, view, safe area); the answer changes at once.
    @discardableResult
    package mutating func setGeometry(_ geometry: WindowGeometry) -> InsetAnimation? {
        self.geometry = geometry
        return recomputeAtOnce()
    }

    /// Moves or resizes the window (screen coordinates); the keyboard stays where it is on the screen.
    @discardableResult
    package mutating func setWindowFrame(_ frame: Rect) -> InsetAnimation? {
        geometry.windowFrame = frame
        return recomputeAtOnce()
    }

    /// Sets the view's bounds (view coordinates; nil: the whole window).
    @discardableResult
    package mutating func setViewBounds(_ bounds: Rect?) -> InsetAnimation? {
        geometry.viewBounds = bounds
        return recomputeAtOnce()
    }

    /// Sets the view's safe area.
    @discardableResult
    package mutating func setSafeArea(_ safeArea: Insets) -> InsetAnimation? {
        geometry.safeArea = safeArea
        return recomputeAtOnce()
    }

    /// Replaces the options.
    @discardableResult
    package mutating func setOptions(_ options: LayoutOptions) -> InsetAnimation? {
        self.options = options
        return recomputeAtOnce()
    }

    /// Registers a field, replacing the frame of a field with the same id.
    package mutating func register(_ field: GuardedField) {
        if let index = fieldIndex[field.id] {
            fields[index] = field
        } else {
            fieldIndex[field.id] = fields.count
            fields.append(field)
        }
        refreshFocusedFrame()
    }

    /// Forgets a field; if it was focused, nothing is focused any more.
    package mutating func unregister(_ id: FieldID) {
        if let index = fieldIndex.removeValue(forKey: id) {
            fields.remove(at: index)
            for later in fields[index...] { fieldIndex[later.id, default: 0] -= 1 }
        }
        if focusedField == id { focusedField = nil }
        refreshFocusedFrame()
    }

    /// Focuses a field (nil: none); the slide is recomputed from scratch for that field alone.
    package mutating func focus(_ id: FieldID?) {
        focusedField = id
        refreshFocusedFrame()
    }

    /// Sets the highest y (view coordinates) a field's top may slide to, usually the top safe-area inset.
    package mutating func setGuardianTopLimit(_ limit: Double) {
        guardianTopLimit = limit
        slide = computeSlide()
        animation = nil
    }

    // MARK: - Rules

    /// Rules 1 and 2, in that order, before rule 3. `willHide` and `didHide` are never ignored (rule 11).
    /// While docked, any frame narrower than the screen is ignored, including a zero `willShow` and a floating
    /// keyboard's frame: iOS leaves the docked state with a hide first, so only a full-width frame or a hide
    /// moves a docked keyboard.
    private func ignoreReason(for event: KeyboardEvent) -> EventDisposition.IgnoreReason? {
        if event.kind.isHide { return nil }
        if event.kind == .willChangeFrame && event.endFrame.isZero { return .zeroFrameWhileDragging }
        if mode == .docked && event.endFrame.width.rounded() != geometry.screen.width.rounded() {
            return .rotationTransient
        }
        return nil
    }

    /// Rule 3.
    private func classify(_ event: KeyboardEvent) -> KeyboardMode {
        if event.kind.isHide { return .hidden }
        if event.kind == .willShow && event.endFrame.isZero { return .floating }
        guard event.endFrame.intersection(geometry.screenBounds) != nil else { return .hidden }
        return event.endFrame.maxY.rounded() < geometry.screen.height.rounded() ? .floating : .docked
    }

    /// Rules 4 to 9 from the current inputs.
    private mutating func recompute() {
        let view = geometry.effectiveViewBounds
        var newOverlap = 0.0
        var tracked: Rect?
        if let keyboard, countsForThisWindow(keyboard) {
            let inView = geometry.convertFromScreen(keyboard.endFrame)
            newOverlap = inView.intersection(view)?.height ?? 0
            if hardwareKeyboardAttached && newOverlap <= options.accessoryBarMax && !options.reserveAccessoryBar {
                newOverlap = 0  // rule 5: only a shortcut bar, which the hardware keyboard makes useless
            } else {
                tracked = inView
            }
        }
        overlap = newOverlap
        isTrackingKeyboard = tracked != nil
        reservedInset = Swift.max(0, newOverlap - geometry.safeAreaBottom)

        let safeGuide = options.usesBottomSafeArea ? geometry.safeAreaBottom : 0
        if let tracked, mode == .floating {
            guideFrame = tracked
        } else {
            // While nothing is tracked the overlap is 0, so this is also the untracked guide.
            let height = Swift.max(newOverlap, safeGuide)
            guideFrame = Rect(x: view.minX, y: view.maxY - height, width: view.width, height: height)
        }
        slide = computeSlide()
    }

    /// Rules 4 and 11, and the screen check: whether the keyboard can cover this window at all.
    private func countsForThisWindow(_ keyboard: KeyboardEvent) -> Bool {
        guard keyboard.screen == geometry.screenID else { return false }
        guard keyboard.isLocal || !options.isLocalOnly else { return false }
        switch mode {
        case .hidden: return false
        case .docked: return true
        // A floating keyboard the system has not placed (zero frame) has nowhere to be followed to.
        case .floating: return options.followsUndockedKeyboard && !keyboard.endFrame.isEmpty
        }
    }

    /// Rule 9: recomputed from scratch for the focused field only, never accumulated.
    private func computeSlide() -> Double {
        guard let field = focusedFrame else { return 0 }
        let roomAbove = field.minY - guardianTopLimit
        let needed = field.maxY + options.guardianMargin - guideFrame.minY
        return Swift.max(0, Swift.min(roomAbove, needed))
    }

    /// Looks up the focused field's frame again and recomputes the slide; the inset does not move.
    private mutating func refreshFocusedFrame() {
        focusedFrame = focusedField.flatMap { id in fieldIndex[id].map { fields[$0].frame } }
        slide = computeSlide()
        animation = nil
    }

    /// Rule 10 for an event.
    private func eventAnimation(from previous: Double, event: KeyboardEvent) -> InsetAnimation? {
        guard reservedInset != previous else { return nil }
        var duration = event.duration > 0 && event.duration.isFinite ? event.duration : 0
        if duration == 0 && mode != .hidden { duration = 0.25 }
        return InsetAnimation(from: previous, to: reservedInset, duration: duration, curve: event.curve)
    }

    /// Recomputes after a non-event input: a changed inset applies at once.
    private mutating func recomputeAtOnce() -> InsetAnimation? {
        let previous = reservedInset
        recompute()
        animation =
            reservedInset == previous
            ? nil : InsetAnimation(from: previous, to: reservedInset, duration: 0, curve: .linear)
        return animation
    }
}
