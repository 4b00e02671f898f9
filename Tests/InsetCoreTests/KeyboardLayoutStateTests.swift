import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// The state machine's non-event inputs (hardware keyboard, window, view, safe area) and its edge answers.
@Suite("KeyboardLayoutState inputs")
struct KeyboardLayoutStateTests {
    @Test("attaching and detaching a hardware keyboard changes the answer at once")
    func hardwareKeyboard() {
        var state = LayoutFixtures.state()
        state.consume(LayoutFixtures.show(LayoutFixtures.shortcutBar))
        #expect(state.reservedInset == 35)
        state.setHardwareKeyboardAttached(true)
        #expect(state.reservedInset == 0)
        #expect(state.animation?.isImmediate == true)
        state.setHardwareKeyboardAttached(true)
        #expect(state.animation == nil)  // nothing changed
        state.setHardwareKeyboardAttached(false)
        #expect(state.reservedInset == 35)
        #expect(state.answer.hardwareKeyboardAttached == false)
    }

    @Test("moving a window recomputes against the keyboard that stays put")
    func windowMove() {
        var state = LayoutFixtures.state(safeAreaBottom: 0, window: LayoutFixtures.stageManagerWindow)
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.reservedInset == 0)
        state.setWindowFrame(Rect(x: 100, y: 400, width: 700, height: 900))  // bottom 1300
        #expect(state.reservedInset == 289)  // 1300 - 1011
        #expect(state.animation == InsetAnimation(from: 0, to: 289, duration: 0, curve: .linear))
        #expect(state.guideFrame == Rect(x: 0, y: 611, width: 700, height: 289))
    }

    @Test("safe area and whole-geometry changes recompute")
    func safeAreaAndGeometry() {
        var state = LayoutFixtures.scenario1()
        state.setSafeArea(Insets(bottom: 34))
        #expect(state.reservedInset == 321)  // 355 - 34
        state.setGeometry(LayoutFixtures.fullScreen(safeAreaBottom: 0))
        #expect(state.reservedInset == 355)
        state.setViewBounds(Rect(x: 0, y: 0, width: 1024, height: 1100))
        #expect(state.reservedInset == 89)  // 1100 - 1011
    }

    @Test("a window moved to another screen is not covered by this screen's keyboard")
    func screenIdentity() {
        var state = LayoutFixtures.scenario1()
        var geometry = state.geometry
        geometry.screenID = "external"
        state.setGeometry(geometry)
        #expect(state.reservedInset == 0)
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard, screen: "external"))
        #expect(state.reservedInset == 335)
    }

    @Test("docked: near the bottom, left and right edges, away from the top")
    func nearEdgesDocked() {
        let state = LayoutFixtures.scenario1()
        #expect(state.nearEdges == [.bottom, .left, .right])
        #expect(state.isAway(from: .top))
        #expect(!state.isAway(from: .bottom))
    }

    @Test("a followed floating keyboard in the middle is near no edge; near the top within the threshold")
    func nearEdgesFloating() {
        var state = LayoutFixtures.state(options: LayoutOptions(followsUndockedKeyboard: true))
        state.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        #expect(state.nearEdges.isEmpty)
        state.consume(LayoutFixtures.change(Rect(x: 352, y: 15, width: 320, height: 260)))
        #expect(state.nearEdges == [.top])  // 15 <= 20
        state.consume(LayoutFixtures.change(Rect(x: 352, y: 25, width: 320, height: 260)))
        #expect(state.nearEdges.isEmpty)  // 25 > 20
    }

    @Test("the answer gathers the state's values")
    func answer() {
        var state = LayoutFixtures.scenario1(options: LayoutOptions(keyboardDismissPadding: 8))
        state.register(GuardedField(id: "a", frame: Rect(x: 40, y: 980, width: 400, height: 44)))
        state.focus("a")
        let answer = state.answer
        #expect(answer.mode == .docked)
        #expect(answer.disposition == .applied)
        #expect(answer.overlap == 355)
        #expect(answer.reservedInset == 335)
        #expect(answer.guideTop == 1011)
        #expect(answer.dismissThreshold == 1003)
        #expect(answer.slide == 23)  // top limit 0: min(980, 23)
        #expect(answer.keyboardFrame == LayoutFixtures.dockedKeyboard)
        #expect(answer.animation == nil)  // focusing is the last input and does not move the inset
    }
}
