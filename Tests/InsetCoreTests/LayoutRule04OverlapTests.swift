import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 4: the overlap is the height of the keyboard's intersection with the view, never the keyboard's height.
@Suite("Rule 4: overlap is the intersection with the view")
struct LayoutRule04OverlapTests {
    @Test("full screen: the whole keyboard covers the view")
    func fullScreen() {
        #expect(LayoutFixtures.scenario1().overlap == 355)
    }

    @Test("Stage Manager window that ends above the keyboard: nothing")
    func stageManagerAbove() {
        var state = LayoutFixtures.state(safeAreaBottom: 0, window: LayoutFixtures.stageManagerWindow)
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.mode == .docked)
        #expect(state.overlap == 0)  // window bottom 1000 < keyboard top 1011
    }

    @Test("Stage Manager window reaching into the keyboard: only the shared strip")
    func stageManagerPartly() {
        var state = LayoutFixtures.state(safeAreaBottom: 0, window: Rect(x: 100, y: 100, width: 700, height: 1000))
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.overlap == 89)  // window bottom 1100 - keyboard top 1011, not 355
    }

    @Test("Split View half-width window: full height, width does not matter")
    func splitView() {
        var state = LayoutFixtures.state(window: Rect(x: 512, y: 0, width: 512, height: 1366))
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.overlap == 355)
    }

    @Test("window lower on the screen: converted by its origin")
    func windowOrigin() {
        var state = LayoutFixtures.state(window: Rect(x: 0, y: 200, width: 1024, height: 1166))
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.overlap == 355)
        #expect(state.guideFrame == Rect(x: 0, y: 811, width: 1024, height: 355))  // 1011 - 200
    }

    @Test("a view shorter than the window: intersection with the view bounds")
    func viewBounds() {
        var state = LayoutFixtures.state()
        state.setViewBounds(Rect(x: 0, y: 0, width: 1024, height: 1200))
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.overlap == 189)  // 1200 - 1011
    }

    @Test("a floating keyboard covers nothing unless followed")
    func floating() {
        var notFollowed = LayoutFixtures.state()
        notFollowed.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        #expect(notFollowed.overlap == 0)

        var followed = LayoutFixtures.state(options: LayoutOptions(followsUndockedKeyboard: true))
        followed.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        #expect(followed.overlap == 260)
        #expect(followed.reservedInset == 240)  // 260 - SB 20
    }

    @Test("a keyboard on another screen covers nothing")
    func otherScreen() {
        var state = LayoutFixtures.state()
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard, screen: "external"))
        #expect(state.mode == .docked)
        #expect(state.overlap == 0)
        #expect(state.reservedInset == 0)
    }
}
