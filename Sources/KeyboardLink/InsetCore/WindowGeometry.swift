/// Where the window is: its screen, its frame on that screen, the view inside it and its safe area.
package struct WindowGeometry: Equatable, Sendable {
    /// The size of the window's screen; its bounds are `(0, 0, width, height)`.
    package var screen: Size
    /// Which screen the window is on.
    package var screenID: ScreenID
    /// The window's frame in screen coordinates.
    package var windowFrame: Rect
    /// The view's bounds in view coordinates, whose origin is the window's origin; nil means the whole window.
    package var viewBounds: Rect?
    /// The view's safe area; the rules use its bottom (`SB`).
    package var safeArea: Insets

    /// Creates a geometry; by default the view fills the window and there is no safe area.
    package init(
        screen: Size,
        screenID: ScreenID = .main,
        windowFrame: Rect,
        viewBounds: Rect? = nil,
        safeArea: Insets = .zero
    ) {
        self.screen = screen
        self.screenID = screenID
        self.windowFrame = windowFrame
        self.viewBounds = viewBounds
        self.safeArea = safeArea
    }

    /// A full-screen window on `screen` with a bottom safe area of `safeAreaBottom` points.
    package static func fullScreen(_ screen: Size, safeAreaBottom: Double = 0) -> WindowGeometry {
        WindowGeometry(
            screen: screen,
            windowFrame: Rect(origin: .zero, size: screen),
            safeArea: Insets(bottom: safeAreaBottom)
        )
    }

    /// The screen's bounds in screen coordinates.
    package var screenBounds: Rect { Rect(origin: .zero, size: screen) }

    /// The view's bounds, defaulting to the window's size at the origin.
    package var effectiveViewBounds: Rect { viewBounds ?? Rect(origin: .zero, size: windowFrame.size) }

    /// The bottom safe-area inset `SB`.
    package var safeAreaBottom: Double { safeArea.bottom }

    /// Converts a rectangle in screen coordinates to view coordinates (subtracts the window's origin).
    package func convertFromScreen(_ rect: Rect) -> Rect {
        rect.offsetBy(dx: -windowFrame.minX, dy: -windowFrame.minY)
    }

    /// Converts a rectangle in view coordinates to screen coordinates (adds the window's origin).
    package func convertToScreen(_ rect: Rect) -> Rect {
        rect.offsetBy(dx: windowFrame.minX, dy: windowFrame.minY)
    }
}
