import Testing

@testable import InsetCore
@testable import KBlinkAPI
@testable import KeyboardLinkBlueZ
@testable import KeyboardLinkClient
@testable import KeyboardLinkCommandLine
@testable import KeyboardLinkDBus
@testable import KeyboardLinkDrivers
@testable import KeyboardLinkFirmware
@testable import KeyboardLinkKeymap
@testable import KeyboardLinkPairing
@testable import KeyboardLinkPresence
@testable import KeyboardLinkService
@testable import KeyboardLinkSimulator
@testable import KeyboardLinkSupport

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

    @Test("point values: whole numbers bare, fractions up to thousandths, -0 as 0")
    func pointFormat() {
        #expect(PointFormat.text(335) == "335")
        #expect(PointFormat.text(167.5) == "167.5")
        #expect(PointFormat.text(-0.0) == "0")
        #expect(PointFormat.text(1.0 / 3) == "0.333")
        #expect(PointFormat.text(-12.0004) == "-12")
        #expect(PointFormat.text(.nan) == "nan")
        #expect(PointFormat.text(-.infinity) == "-inf")
        #expect(PointFormat.text(1e20) == "1e+20")
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
