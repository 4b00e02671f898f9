/// One question for the layout core, with plain stored properties so that a D-Bus `a{sv}` dictionary or CLI
/// arguments map onto it key by key; everything but the screen and the window has a default.
package struct InsetRequest: Equatable, Sendable {
    /// The screen's size; its bounds are `(0, 0, width, height)`.
    package var screen: Size
    /// Which screen the window is on (events naming another screen cover nothing).
    package var screenID: ScreenID
    /// The window's frame in screen coordinates.
    package var window: Rect
    /// The view's bounds in view coordinates (origin at the window's origin); nil: the window's size.
    package var viewBounds: Rect?
    /// The bottom safe-area inset `SB` in points.
    package var safeAreaBottom: Double
    /// Events that happened before `event`, applied first and in order (to ask "after #1, ...").
    package var precedingEvents: [KeyboardEvent]
    /// The event to answer for; nil: the keyboard is hidden.
    package var event: KeyboardEvent?
    /// Whether a hardware keyboard is attached.
    package var hardwareKeyboardAttached: Bool
    /// The options.
    package var options: LayoutOptions
    /// The text fields the guardian knows about (frames in view coordinates).
    package var fields: [GuardedField]
    /// The focused field's id, which must be among `fields`; nil: no slide.
    package var focusedField: FieldID?
    /// The highest y (view coordinates) the guardian may slide a field's top to.
    package var topLimit: Double

    /// Creates a request; omitted parameters take their documented defaults.
    package init(
        screen: Size,
        screenID: ScreenID = .main,
        window: Rect,
        viewBounds: Rect? = nil,
        safeAreaBottom: Double = 0,
        precedingEvents: [KeyboardEvent] = [],
        event: KeyboardEvent? = nil,
        hardwareKeyboardAttached: Bool = false,
        options: LayoutOptions = LayoutOptions(),
        fields: [GuardedField] = [],
        focusedField: FieldID? = nil,
        topLimit: Double = 0
    ) {
        self.screen = screen
        self.screenID = screenID
        self.window = window
        self.viewBounds = viewBounds
        self.safeAreaBottom = safeAreaBottom
        self.precedingEvents = precedingEvents
        self.event = event
        self.hardwareKeyboardAttached = hardwareKeyboardAttached
        self.options = options
        self.fields = fields
        self.focusedField = focusedField
        self.topLimit = topLimit
    }

    /// The geometry this request describes.
    package var geometry: WindowGeometry {
        WindowGeometry(
            screen: screen,
            screenID: screenID,
            windowFrame: window,
            viewBounds: viewBounds,
            safeArea: Insets(bottom: safeAreaBottom)
        )
    }

    /// Registers `frame` as the field named `FieldID.focused` and focuses it (what `--focused X,Y,W,H` means).
    package mutating func focus(frame: Rect) {
        fields.removeAll { $0.id == .focused }
        fields.append(GuardedField(id: .focused, frame: frame))
        focusedField = .focused
    }

    /// Checks every number: finite, sizes and durations not negative, the focused field registered.
    /// Call it at the edges (D-Bus, CLI) before `InsetResolver.resolve(_:)`, which never crashes but gives
    /// meaningless numbers for invalid input.
    /// - Throws: `LayoutError` naming the first bad input.
    package func validate() throws(LayoutError) {
        try Self.check(size: screen, "screen")
        try Self.check(rect: window, "window")
        if let viewBounds { try Self.check(rect: viewBounds, "viewBounds") }
        try Self.check(distance: safeAreaBottom, "safeAreaBottom")
        for (index, event) in precedingEvents.enumerated() {
            try Self.check(event: event, "precedingEvents[\(index)]")
        }
        if let event { try Self.check(event: event, "event") }
        try Self.check(number: options.keyboardDismissPadding, "options.keyboardDismissPadding")
        try Self.check(distance: options.accessoryBarMax, "options.accessoryBarMax")
        try Self.check(distance: options.nearEdgeThreshold, "options.nearEdgeThreshold")
        try Self.check(distance: options.guardianMargin, "options.guardianMargin")
        try Self.check(number: topLimit, "topLimit")
        for (index, field) in fields.enumerated() {
            try Self.check(rect: field.frame, "fields[\(index)] (\(field.id.errorExcerpt))")
        }
        if let focusedField, !fields.contains(where: { $0.id == focusedField }) {
            throw LayoutError(
                input: "focusedField",
                problem:
                    "names '\(focusedField.errorExcerpt)', which is not among the registered fields; register it first"
            )
        }
    }

    private static func check(number: Double, _ input: String) throws(LayoutError) {
        guard number.isFinite else { throw .notFinite(input, number) }
    }

    private static func check(distance: Double, _ input: String) throws(LayoutError) {
        try check(number: distance, input)
        guard distance >= 0 else { throw .negative(input, distance) }
    }

    private static func check(size: Size, _ input: String) throws(LayoutError) {
        try check(distance: size.width, input + ".width")
        try check(distance: size.height, input + ".height")
    }

    private static func check(rect: Rect, _ input: String) throws(LayoutError) {
        try check(number: rect.minX, input + ".x")
        try check(number: rect.minY, input + ".y")
        try check(size: rect.size, input)
    }

    private static func check(event: KeyboardEvent, _ input: String) throws(LayoutError) {
        try check(rect: event.beginFrame, input + ".beginFrame")
        try check(rect: event.endFrame, input + ".endFrame")
        try check(distance: event.duration, input + ".duration")
    }
}
