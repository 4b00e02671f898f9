import InsetCore
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkCommandLine

@Suite("InsetAnswer text")
struct InsetAnswerTextTests {
    @Test("scenario 1 as key: value lines")
    func scenario1() {
        let answer = LayoutFixtures.state().answerAfter(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(
            answer.text == """
                mode: docked
                event: applied
                overlap: 355
                inset: 335
                guide: 0,1011,1024,355
                guide-top: 1011
                guide-height: 355
                dismiss-threshold: 1011
                slide: 0
                keyboard: 0,1011,1024,355
                hardware-keyboard: no
                near-edges: bottom,left,right
                animation: 0 -> 335 over 0.25 s, curve 7 (keyboard)
                """
        )
    }

    @Test("hidden, ignored and immediate variants")
    func variants() {
        let hidden = LayoutFixtures.state().answer
        #expect(hidden.textFields.first { $0.key == "event" }?.value == "none")
        #expect(hidden.textFields.first { $0.key == "keyboard" }?.value == "none")
        #expect(hidden.textFields.first { $0.key == "animation" }?.value == "none")

        let ignored = LayoutFixtures.scenario1().answerAfter(LayoutFixtures.change(.zero))
        #expect(ignored.textFields.first { $0.key == "event" }?.value == "ignored (zero frame while dragging)")

        let transient = LayoutFixtures.scenario1().answerAfter(
            LayoutFixtures.change(Rect(x: 0, y: 1011, width: 768, height: 355))
        )
        #expect(transient.textFields.first { $0.key == "event" }?.value == "ignored (rotation transient)")

        let atOnce = LayoutFixtures.scenario1().answerAfter(LayoutFixtures.hide(duration: 0))
        #expect(atOnce.textFields.first { $0.key == "animation" }?.value == "335 -> 0 at once")
    }
}

extension KeyboardLayoutState {
    /// The answer after one more event.
    fileprivate func answerAfter(_ event: KeyboardEvent) -> InsetAnswer {
        var copy = self
        copy.consume(event)
        return copy.answer
    }
}
