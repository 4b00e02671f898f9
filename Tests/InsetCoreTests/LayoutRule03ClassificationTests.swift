import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 3: classify an event as hidden, docked or floating.
@Suite("Rule 3: classification")
struct LayoutRule03ClassificationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: KeyboardEventKind
        let end: Rect
        let mode: KeyboardMode
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "willHide with an on-screen frame", kind: .willHide, end: LayoutFixtures.dockedKeyboard, mode: .hidden
        ),
        Case(name: "didHide", kind: .didHide, end: LayoutFixtures.dockedKeyboard, mode: .hidden),
        Case(name: "willShow with a zero frame", kind: .willShow, end: .zero, mode: .floating),
        Case(name: "bottom at the screen's bottom", kind: .willShow, end: LayoutFixtures.dockedKeyboard, mode: .docked),
        Case(
            name: "reaching below the screen (bar)", kind: .willShow, end: LayoutFixtures.shortcutBar, mode: .docked
        ),
        Case(name: "above the bottom", kind: .willShow, end: LayoutFixtures.floatingKeyboard, mode: .floating),
        Case(
            name: "maxY 1365.6 rounds to 1366: docked", kind: .willChangeFrame,
            end: Rect(x: 0, y: 1010.6, width: 1024, height: 355), mode: .docked
        ),
        Case(
            name: "maxY 1365.4 rounds to 1365: floating", kind: .willChangeFrame,
            end: Rect(x: 0, y: 1010.4, width: 1024, height: 355), mode: .floating
        ),
        Case(
            name: "just below the screen", kind: .willChangeFrame, end: LayoutFixtures.offScreenKeyboard, mode: .hidden),
        Case(
            name: "beside the screen", kind: .willShow, end: Rect(x: 1024, y: 1011, width: 1024, height: 355),
            mode: .hidden
        ),
        Case(
            name: "partly on screen, bottom above the screen's bottom", kind: .willShow,
            end: Rect(x: -100, y: 500, width: 320, height: 260), mode: .floating
        ),
    ]

    @Test("classifies", arguments: cases)
    func classifies(_ testCase: Case) {
        var state = LayoutFixtures.state()
        state.consume(KeyboardEvent(kind: testCase.kind, endFrame: testCase.end))
        #expect(state.mode == testCase.mode)
        #expect(state.lastDisposition == .applied)
    }

    @Test("a hide after a docked show returns to hidden")
    func hideAfterShow() {
        var state = LayoutFixtures.scenario1()
        state.consume(KeyboardEvent(kind: .didHide, endFrame: LayoutFixtures.offScreenKeyboard, duration: 0))
        #expect(state.mode == .hidden)
        #expect(state.answer.keyboardFrame == nil)
    }
}
