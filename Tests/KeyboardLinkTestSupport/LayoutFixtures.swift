import InsetCore

/// The iPad Pro 12.9" geometry of layout-core.md's scenario table, and short ways to build events.
package enum LayoutFixtures {
    /// 1024 x 1366 pt.
    package static let screen = Size(width: 1024, height: 1366)
    /// A full-screen window.
    package static let fullScreenWindow = Rect(x: 0, y: 0, width: 1024, height: 1366)
    /// Scenario 2's Stage Manager window: bottom edge at y 1000.
    package static let stageManagerWindow = Rect(x: 100, y: 100, width: 700, height: 900)
    /// Scenario 1's docked keyboard: 355 pt tall, top at 1011.
    package static let dockedKeyboard = Rect(x: 0, y: 1011, width: 1024, height: 355)
    /// Scenario 4's shortcut bar: a 355 pt keyboard frame of which 55 pt show above the screen's bottom.
    package static let shortcutBar = Rect(x: 0, y: 1311, width: 1024, height: 355)
    /// Scenario 9's end frame for a hide: just below the screen.
    package static let offScreenKeyboard = Rect(x: 0, y: 1366, width: 1024, height: 355)
    /// Scenario 6's floating keyboard.
    package static let floatingKeyboard = Rect(x: 352, y: 700, width: 320, height: 260)

    /// A full-screen window on the iPad with the given bottom safe area.
    package static func fullScreen(safeAreaBottom: Double = 20) -> WindowGeometry {
        WindowGeometry(screen: screen, windowFrame: fullScreenWindow, safeArea: Insets(bottom: safeAreaBottom))
    }

    /// A state for a full-screen window (SB 20 unless told).
    package static func state(
        safeAreaBottom: Double = 20,
        window: Rect = fullScreenWindow,
        options: LayoutOptions = LayoutOptions(),
        hardware: Bool = false
    ) -> KeyboardLayoutState {
        KeyboardLayoutState(
            geometry: WindowGeometry(screen: screen, windowFrame: window, safeArea: Insets(bottom: safeAreaBottom)),
            options: options,
            hardwareKeyboardAttached: hardware
        )
    }

    /// A `willShow`.
    package static func show(
        _ frame: Rect,
        duration: Double = 0.25,
        curve: AnimationCurve = .keyboard,
        isLocal: Bool = true,
        screen: ScreenID = .main
    ) -> KeyboardEvent {
        KeyboardEvent(
            kind: .willShow, endFrame: frame, duration: duration, curve: curve, isLocal: isLocal, screen: screen)
    }

    /// A `willChangeFrame`.
    package static func change(_ frame: Rect, duration: Double = 0.25, curve: AnimationCurve = .keyboard)
        -> KeyboardEvent
    {
        KeyboardEvent(kind: .willChangeFrame, endFrame: frame, duration: duration, curve: curve)
    }

    /// A `willHide` to just below the screen.
    package static func hide(
        _ frame: Rect = offScreenKeyboard,
        duration: Double = 0.25,
        curve: AnimationCurve = .keyboard,
        isLocal: Bool = true
    ) -> KeyboardEvent {
        KeyboardEvent(kind: .willHide, endFrame: frame, duration: duration, curve: curve, isLocal: isLocal)
    }

    /// Scenario 1: a full-screen window (SB 20) with the docked keyboard shown.
    package static func scenario1(options: LayoutOptions = LayoutOptions(), hardware: Bool = false)
        -> KeyboardLayoutState
    {
        var state = state(options: options, hardware: hardware)
        state.consume(show(dockedKeyboard))
        return state
    }
}
