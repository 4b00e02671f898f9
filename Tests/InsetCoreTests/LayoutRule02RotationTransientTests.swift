import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 2: while docked, ignore an end frame whose width differs from the screen width (rotation transients).
@Suite("Rule 2: rotation transients are ignored while docked")
struct LayoutRule02RotationTransientTests {
    /// The 768 pt wide frame iOS may send mid-rotation.
    static let portraitWidthFrame = Rect(x: 0, y: 1011, width: 768, height: 355)

    @Test("docked: a frame of another width is ignored", arguments: [KeyboardEventKind.willChangeFrame, .willShow])
    func ignoredWhileDocked(kind: KeyboardEventKind) {
        var state = LayoutFixtures.scenario1()
        let animation = state.consume(KeyboardEvent(kind: kind, endFrame: Self.portraitWidthFrame))
        #expect(animation == nil)
        #expect(state.lastDisposition == .ignored(.rotationTransient))
        #expect(state.mode == .docked)
        #expect(state.reservedInset == 335)
    }

    @Test("not docked: the same frame is applied (rule 2 applies only while docked)")
    func appliedWhileHidden() {
        var state = LayoutFixtures.state()
        state.consume(LayoutFixtures.show(Self.portraitWidthFrame))
        #expect(state.lastDisposition == .applied)
        // maxY 1366 is not above the screen's bottom: docked; it covers 355 of the full-screen view.
        #expect(state.mode == .docked)
        #expect(state.reservedInset == 335)
    }

    @Test("floating: a narrow frame moves the keyboard")
    func appliedWhileFloating() {
        var state = LayoutFixtures.state(options: LayoutOptions(followsUndockedKeyboard: true))
        state.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        let moved = Rect(x: 100, y: 900, width: 320, height: 260)
        state.consume(LayoutFixtures.change(moved))
        #expect(state.lastDisposition == .applied)
        #expect(state.guideFrame == moved)
    }

    @Test("a width equal to the screen's once rounded is not a transient")
    func roundedWidth() {
        var state = LayoutFixtures.scenario1()
        state.consume(LayoutFixtures.change(Rect(x: 0, y: 1000, width: 1024.4, height: 366)))
        #expect(state.lastDisposition == .applied)
        #expect(state.reservedInset == 346)  // 1366 - 1000 = 366 overlap, minus SB 20
    }

    @Test("willHide with any width is never ignored")
    func hideNeverIgnored() {
        var state = LayoutFixtures.scenario1()
        state.consume(LayoutFixtures.hide(Rect(x: 0, y: 1366, width: 768, height: 355)))
        #expect(state.lastDisposition == .applied)
        #expect(state.mode == .hidden)
        #expect(state.reservedInset == 0)
    }
}
