import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// The state's field table, kept with an index: registration order, replacement in place, removal shifting the rest,
/// and the focused field's frame found after each change.
@Suite("KeyboardLayoutState's fields: order, replacement and removal with the index")
struct FieldRegistryTests {
    static func frame(_ y: Double) -> Rect { Rect(x: 40, y: y, width: 400, height: 44) }

    @Test("re-registering replaces in place; unregistering keeps the others' order and frames")
    func registry() {
        var state = LayoutFixtures.scenario1()
        for (index, id) in ["a", "b", "c", "d"].enumerated() {
            state.register(GuardedField(id: FieldID(rawValue: id), frame: Self.frame(Double(100 * (index + 1)))))
        }
        state.register(GuardedField(id: "b", frame: Self.frame(950)))
        #expect(state.fields.map(\.id.rawValue) == ["a", "b", "c", "d"])
        state.unregister("a")
        state.unregister("zz")
        #expect(state.fields.map(\.id.rawValue) == ["b", "c", "d"])
        // The fields after the removed one are still found at their new places.
        state.focus("d")
        #expect(state.answer.slide == 0)  // y 400 is far above the keyboard
        state.register(GuardedField(id: "d", frame: Self.frame(980)))
        #expect(state.answer.slide == 23)  // as in KeyboardLayoutStateTests' answer(): min(980, 23)
        state.focus("b")
        #expect(state.answer.slide == 0)  // 950 + 44 - 1011 < 0 with the default margin
        state.unregister("b")
        #expect(state.focusedField == nil)
        state.register(GuardedField(id: "a", frame: Self.frame(980)))
        #expect(state.fields.map(\.id.rawValue) == ["c", "d", "a"])
        state.focus("a")
        #expect(state.answer.slide == 23)
    }

    @Test("a request with 256 fields resolves with the last one focused")
    func manyFields() {
        var request = InsetRequest(screen: LayoutFixtures.screen, window: LayoutFixtures.fullScreenWindow)
        request.safeAreaBottom = 20
        request.event = LayoutFixtures.show(LayoutFixtures.dockedKeyboard)
        request.fields = (0..<256).map { GuardedField(id: FieldID(rawValue: "f\($0)"), frame: Self.frame(Double($0))) }
        request.fields[255] = GuardedField(id: "f255", frame: Self.frame(980))
        request.focusedField = "f255"
        #expect((try? request.validate()) != nil)
        #expect(InsetResolver.resolve(request).slide == 23)
    }
}
