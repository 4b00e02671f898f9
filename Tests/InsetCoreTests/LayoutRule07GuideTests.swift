import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 7: the keyboard layout guide.
@Suite("Rule 7: guide frame")
struct LayoutRule07GuideTests {
    @Test("docked: guide height max(overlap, SB) at the bottom; top 1366 - 355 = 1011")
    func docked() {
        let state = LayoutFixtures.scenario1()
        #expect(state.guideFrame == Rect(x: 0, y: 1011, width: 1024, height: 355))
        #expect(state.isTrackingKeyboard)
    }

    @Test("hidden: the bottom safe area, or nothing without usesBottomSafeArea")
    func hidden() {
        #expect(LayoutFixtures.state().guideFrame == Rect(x: 0, y: 1346, width: 1024, height: 20))
        let without = LayoutFixtures.state(options: LayoutOptions(usesBottomSafeArea: false))
        #expect(without.guideFrame == Rect(x: 0, y: 1366, width: 1024, height: 0))
    }

    @Test("docked overlap smaller than SB: the safe area wins unless usesBottomSafeArea is off")
    func overlapBelowSafeArea() {
        // Window (100,100,700,920): bottom 1020, so the keyboard (top 1011) covers 9 pt; view height 920.
        let window = Rect(x: 100, y: 100, width: 700, height: 920)
        var state = LayoutFixtures.state(window: window)
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.overlap == 9)
        #expect(state.guideFrame == Rect(x: 0, y: 900, width: 700, height: 20))

        state.setOptions(LayoutOptions(usesBottomSafeArea: false))
        #expect(state.guideFrame == Rect(x: 0, y: 911, width: 700, height: 9))
    }

    @Test("followsUndockedKeyboard: the guide is the floating keyboard in view coordinates")
    func followsFloating() {
        let options = LayoutOptions(followsUndockedKeyboard: true)
        var state = LayoutFixtures.state(window: Rect(x: 100, y: 100, width: 900, height: 1200), options: options)
        state.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        #expect(state.guideFrame == Rect(x: 252, y: 600, width: 320, height: 260))
        #expect(state.isTrackingKeyboard)
    }

    @Test("a floating keyboard that is not followed leaves the guide at the safe area")
    func floatingNotFollowed() {
        var state = LayoutFixtures.state()
        state.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        #expect(state.guideFrame == Rect(x: 0, y: 1346, width: 1024, height: 20))
        #expect(!state.isTrackingKeyboard)
    }

    @Test("a followed floating keyboard the system has not placed (zero frame) leaves the guide at the bottom")
    func followsZeroFrame() {
        var state = LayoutFixtures.state(options: LayoutOptions(followsUndockedKeyboard: true))
        state.consume(LayoutFixtures.show(.zero))
        #expect(state.mode == .floating)
        #expect(state.guideFrame == Rect(x: 0, y: 1346, width: 1024, height: 20))
    }

    @Test("a hardware-zeroed bar is not tracked: the guide is the safe area")
    func hardwareBarNotTracked() {
        var state = LayoutFixtures.state(hardware: true)
        state.consume(LayoutFixtures.show(LayoutFixtures.shortcutBar))
        #expect(!state.isTrackingKeyboard)
        #expect(state.guideFrame == Rect(x: 0, y: 1346, width: 1024, height: 20))
    }
}
