import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 1: ignore `willChangeFrame` whose end frame is all zeros (sent while the user drags a floating keyboard).
@Suite("Rule 1: all-zero willChangeFrame is ignored")
struct LayoutRule01ZeroFrameTests {
    @Test("after a docked show, a zero willChangeFrame changes nothing")
    func ignoredWhileDocked() {
        var state = LayoutFixtures.scenario1()
        let before = state
        let animation = state.consume(LayoutFixtures.change(.zero))
        #expect(animation == nil)
        #expect(state.lastDisposition == .ignored(.zeroFrameWhileDragging))
        #expect(state.mode == .docked)
        #expect(state.reservedInset == 335)  // 355 - SB 20, unchanged
        #expect(state.guideFrame == before.guideFrame)
    }

    @Test("while a followed floating keyboard is dragged, its last frame stays")
    func ignoredWhileFloating() {
        var state = LayoutFixtures.state(options: LayoutOptions(followsUndockedKeyboard: true))
        state.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        state.consume(LayoutFixtures.change(.zero))
        #expect(state.mode == .floating)
        #expect(state.guideFrame == LayoutFixtures.floatingKeyboard)  // full-screen window: view = screen
        #expect(state.lastDisposition?.isIgnored == true)
    }

    @Test("a zero-size frame that is not all zeros is not rule 1: it is classified (no area on screen: hidden)")
    func onlyAllZeros() {
        // Floating, so that rule 2 (docked only) stays out of the way.
        var state = LayoutFixtures.state(options: LayoutOptions(followsUndockedKeyboard: true))
        state.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        #expect(state.reservedInset == 240)
        state.consume(LayoutFixtures.change(Rect(x: 10, y: 10, width: 0, height: 0)))
        #expect(state.lastDisposition == .applied)
        #expect(state.mode == .hidden)
        #expect(state.reservedInset == 0)
    }

    @Test("rule 1 is about willChangeFrame only: a zero willShow is a floating keyboard")
    func willShowZeroIsNotIgnored() {
        var state = LayoutFixtures.state()
        state.consume(LayoutFixtures.show(.zero))
        #expect(state.lastDisposition == .applied)
        #expect(state.mode == .floating)
    }
}
