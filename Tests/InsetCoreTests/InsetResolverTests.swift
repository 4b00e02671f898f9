import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

@Suite("InsetResolver and request validation")
struct InsetResolverTests {
    static let request = InsetRequest(
        screen: LayoutFixtures.screen,
        window: LayoutFixtures.fullScreenWindow,
        safeAreaBottom: 20,
        event: LayoutFixtures.show(LayoutFixtures.dockedKeyboard)
    )

    @Test("without an event the keyboard is hidden")
    func noEvent() {
        var request = Self.request
        request.event = nil
        let answer = InsetResolver.resolve(request)
        #expect(answer.mode == .hidden)
        #expect(answer.disposition == nil)
        #expect(answer.reservedInset == 0)
        #expect(answer.guideFrame == Rect(x: 0, y: 1346, width: 1024, height: 20))
        #expect(answer.animation == nil)
    }

    @Test("gives the same answer as feeding the state machine by hand")
    func sameAsStateMachine() {
        var request = Self.request
        request.hardwareKeyboardAttached = true
        request.focus(frame: Rect(x: 40, y: 980, width: 400, height: 44))
        request.topLimit = 24
        var state = LayoutFixtures.state(hardware: true)
        state.register(GuardedField(id: .focused, frame: Rect(x: 40, y: 980, width: 400, height: 44)))
        state.setGuardianTopLimit(24)
        state.focus(.focused)
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(InsetResolver.resolve(request) == state.answer)
        #expect(InsetResolver.resolve(request).slide == 23)
        #expect(
            InsetResolver.resolve(request).animation
                == InsetAnimation(from: 0, to: 335, duration: 0.25, curve: .keyboard))
    }

    @Test("focus(frame:) replaces an earlier focused frame")
    func focusFrame() {
        var request = Self.request
        request.focus(frame: Rect(x: 0, y: 0, width: 1, height: 1))
        request.focus(frame: Rect(x: 40, y: 980, width: 400, height: 44))
        #expect(request.fields.count == 1)
        #expect(request.focusedField == .focused)
    }

    @Test("a valid request passes validation") func valid() throws {
        var request = Self.request
        request.options.keyboardDismissPadding = -5  // negatives count as 0: allowed
        try request.validate()
    }

    struct Broken: Sendable, CustomTestStringConvertible {
        let input: String
        let change: @Sendable (inout InsetRequest) -> Void
        var testDescription: String { input }
    }

    static let broken: [Broken] = [
        Broken(input: "screen.width") { $0.screen.width = -1 },
        Broken(input: "screen.height") { $0.screen.height = .nan },
        Broken(input: "window.x") { $0.window.origin.x = .infinity },
        Broken(input: "window.height") { $0.window.size.height = -10 },
        Broken(input: "viewBounds.width") { $0.viewBounds = Rect(x: 0, y: 0, width: -1, height: 5) },
        Broken(input: "safeAreaBottom") { $0.safeAreaBottom = -20 },
        Broken(input: "event.endFrame.height") { $0.event?.endFrame.size.height = .nan },
        Broken(input: "event.duration") { $0.event?.duration = -0.25 },
        Broken(input: "precedingEvents[0].beginFrame.y") {
            $0.precedingEvents = [
                KeyboardEvent(kind: .willShow, beginFrame: Rect(x: 0, y: .nan, width: 1, height: 1), endFrame: .zero)
            ]
        },
        Broken(input: "options.keyboardDismissPadding") { $0.options.keyboardDismissPadding = .nan },
        Broken(input: "options.accessoryBarMax") { $0.options.accessoryBarMax = -1 },
        Broken(input: "topLimit") { $0.topLimit = .infinity },
        Broken(input: "fields[0] (a).width") {
            $0.fields = [GuardedField(id: "a", frame: Rect(x: 0, y: 0, width: -3, height: 1))]
        },
        Broken(input: "focusedField") { $0.focusedField = "nowhere" },
    ]

    @Test("bad numbers are refused with the input named", arguments: broken)
    func refuses(_ broken: Broken) {
        var request = Self.request
        broken.change(&request)
        #expect(throws: LayoutError.self) { try request.validate() }
        do {
            try request.validate()
        } catch {
            #expect(error.input == broken.input)
        }
        _ = InsetResolver.resolve(request)  // and never crashes
    }

    @Test("error messages say what is wrong")
    func messages() {
        var request = Self.request
        request.window.size.width = -5
        #expect(throws: LayoutError(input: "window.width", problem: "must not be negative; got -5")) {
            try request.validate()
        }
        request = Self.request
        request.focusedField = "x"
        do {
            try request.validate()
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("not among the registered fields"))
        }
    }
}
