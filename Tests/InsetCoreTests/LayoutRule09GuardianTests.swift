import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 9: slide = max(0, min(field.minY - topLimit, field.maxY + margin - guideTop)), for the focused field only.
@Suite("Rule 9: guardian slide")
struct LayoutRule09GuardianTests {
    static let low = GuardedField(id: "low", frame: Rect(x: 40, y: 980, width: 400, height: 44))
    static let high = GuardedField(id: "high", frame: Rect(x: 40, y: 400, width: 400, height: 44))
    static let lower = GuardedField(id: "lower", frame: Rect(x: 40, y: 1000, width: 400, height: 44))

    static func docked(fields: [GuardedField]) -> KeyboardLayoutState {
        var state = LayoutFixtures.scenario1()
        state.setGuardianTopLimit(24)
        for field in fields { state.register(field) }
        return state
    }

    @Test("scenario 11: the low field slides 1024 + 10 - 1011 = 23")
    func lowField() {
        var state = Self.docked(fields: [Self.low])
        state.focus("low")
        #expect(state.slide == 23)
    }

    @Test("a field well above the keyboard does not slide: 444 + 10 < 1011")
    func highField() {
        var state = Self.docked(fields: [Self.high])
        state.focus("high")
        #expect(state.slide == 0)
    }

    @Test("the top limit caps the slide: min(60 - 24, 1060 + 10 - 1011) = 36")
    func topLimit() {
        var state = Self.docked(fields: [GuardedField(id: "tall", frame: Rect(x: 40, y: 60, width: 400, height: 1000))])
        state.focus("tall")
        #expect(state.slide == 36)
    }

    @Test("switching fields recomputes from scratch; nothing accumulates (seed 004's bug)")
    func switching() {
        var state = Self.docked(fields: [Self.low, Self.high, Self.lower])
        var slides: [Double] = []
        for id: FieldID in ["low", "lower", "low", "high", "low", "low"] {
            state.focus(id)
            slides.append(state.slide)
        }
        // lower: 1044 + 10 - 1011 = 43.
        #expect(slides == [23, 43, 23, 0, 23, 23])
    }

    @Test("only the focused field counts; none focused or an unknown id slides 0")
    func focusedOnly() {
        var state = Self.docked(fields: [Self.high, Self.lower])
        #expect(state.slide == 0)
        state.focus("high")
        #expect(state.slide == 0)  // lower would need 43, but it is not focused
        state.focus("missing")
        #expect(state.slide == 0)
    }

    @Test("the slide follows the keyboard: hiding brings it back to 0, showing again to 23")
    func followsKeyboard() {
        var state = Self.docked(fields: [Self.low])
        state.focus("low")
        state.consume(LayoutFixtures.hide())
        #expect(state.slide == 0)  // guide top 1346 (SB 20): 1034 < 1346
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.slide == 23)
    }

    @Test("re-registering a field moves it; unregistering the focused field clears the focus")
    func registration() {
        var state = Self.docked(fields: [Self.low])
        state.focus("low")
        state.register(GuardedField(id: "low", frame: Rect(x: 40, y: 990, width: 400, height: 44)))
        #expect(state.slide == 33)  // 1034 + 10 - 1011
        #expect(state.fields.count == 1)
        state.unregister("low")
        #expect(state.focusedField == nil)
        #expect(state.slide == 0)
    }

    @Test("the margin is an option: margin 0 gives 13")
    func margin() {
        var state = LayoutFixtures.scenario1(options: LayoutOptions(guardianMargin: 0))
        state.register(Self.low)
        state.focus("low")
        #expect(state.slide == 13)
    }
}
