import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// The scenario table of layout-core.md, answered through `InsetResolver` (the daemon's and the CLI's path).
/// Screen 1024 x 1366 pt, default options unless a row says otherwise. Each row's expected numbers are worked out
/// by hand from the rules in its comment.
@Suite("layout-core.md scenario table")
struct LayoutScenarioTableTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        let number: String
        let request: InsetRequest
        let mode: KeyboardMode
        var ignored = false
        let inset: Double
        var guideTop: Double?
        var guideHeight: Double?
        var slide: Double?
        /// (seconds, inset) samples of the animation.
        var samples: [(Double, Double)] = []
        var testDescription: String { "scenario \(number)" }
    }

    static let screen = LayoutFixtures.screen
    static let full = LayoutFixtures.fullScreenWindow
    /// Scenario 1's event: willShow (0,1011,1024,355), 0.25 s, curve 7.
    static let show1 = LayoutFixtures.show(LayoutFixtures.dockedKeyboard, duration: 0.25, curve: .keyboard)

    static let scenarios: [Scenario] = [
        // 1: overlap = (0,1011,1024,355) ∩ (0,0,1024,1366) = 355; inset 355 - 20 = 335; guide top 1366 - 355.
        Scenario(
            number: "1", request: InsetRequest(screen: screen, window: full, safeAreaBottom: 20, event: show1),
            mode: .docked, inset: 335, guideTop: 1011, guideHeight: 355, samples: [(0, 0), (0.25, 335)]
        ),
        // 2: window bottom 100 + 900 = 1000 lies above the keyboard's top 1011: no intersection, inset 0.
        Scenario(
            number: "2",
            request: InsetRequest(screen: screen, window: LayoutFixtures.stageManagerWindow, event: show1),
            mode: .docked, inset: 0, guideTop: 900, guideHeight: 0
        ),
        // 4: bar overlap 1366 - 1311 = 55 <= 80 with a hardware keyboard: counts as 0.
        Scenario(
            number: "4",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20,
                event: LayoutFixtures.show(LayoutFixtures.shortcutBar), hardwareKeyboardAttached: true
            ),
            mode: .docked, inset: 0, guideTop: 1346, guideHeight: 20
        ),
        // 4 with reserveAccessoryBar: 55 - 20 = 35.
        Scenario(
            number: "4 (reserveAccessoryBar)",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20,
                event: LayoutFixtures.show(LayoutFixtures.shortcutBar), hardwareKeyboardAttached: true,
                options: LayoutOptions(reserveAccessoryBar: true)
            ),
            mode: .docked, inset: 35, guideTop: 1311, guideHeight: 55
        ),
        // 5: 355 > 80, so the summoned keyboard is reserved: 355 - 20 = 335.
        Scenario(
            number: "5",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20, event: show1, hardwareKeyboardAttached: true
            ),
            mode: .docked, inset: 335, guideTop: 1011
        ),
        // 6: maxY 700 + 260 = 960 < 1366: floating; not followed by default, so no overlap.
        Scenario(
            number: "6",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20,
                event: LayoutFixtures.show(LayoutFixtures.floatingKeyboard)
            ),
            mode: .floating, inset: 0, guideTop: 1346
        ),
        // 7: a zero willChangeFrame after #1 is ignored; the inset stays 335.
        Scenario(
            number: "7",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20, precedingEvents: [show1],
                event: LayoutFixtures.change(.zero)
            ),
            mode: .docked, ignored: true, inset: 335, guideTop: 1011
        ),
        // 9: after #1, willHide over 0.25 s, linear: 335 -> 0; at 0.125 s, 335 + (0 - 335) * 0.5 = 167.5.
        Scenario(
            number: "9",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20, precedingEvents: [show1],
                event: LayoutFixtures.hide(duration: 0.25, curve: .linear)
            ),
            mode: .hidden, inset: 0, guideTop: 1346, samples: [(0, 335), (0.125, 167.5), (0.25, 0)]
        ),
        // 11: field (40,980,400,44), top limit 24: min(980 - 24, 1024 + 10 - 1011) = min(956, 23) = 23.
        Scenario(
            number: "11",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20, event: show1,
                fields: [GuardedField(id: "name", frame: Rect(x: 40, y: 980, width: 400, height: 44))],
                focusedField: "name", topLimit: 24
            ),
            mode: .docked, inset: 335, slide: 23
        ),
        // 11, field at y = 400: 400 + 44 + 10 - 1011 < 0, so max(0, ...) = 0.
        Scenario(
            number: "11 (field at y 400)",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20, event: show1,
                fields: [GuardedField(id: "name", frame: Rect(x: 40, y: 400, width: 400, height: 44))],
                focusedField: "name", topLimit: 24
            ),
            mode: .docked, inset: 335, slide: 0
        ),
        // 13: hidden; usesBottomSafeArea off, so the guide is 0 tall even with SB 20.
        Scenario(
            number: "13",
            request: InsetRequest(
                screen: screen, window: full, safeAreaBottom: 20, options: LayoutOptions(usesBottomSafeArea: false)
            ),
            mode: .hidden, inset: 0, guideTop: 1366, guideHeight: 0
        ),
    ]

    @Test("scenario", arguments: scenarios)
    func scenario(_ scenario: Scenario) throws {
        try scenario.request.validate()
        let answer = InsetResolver.resolve(scenario.request)
        #expect(answer.mode == scenario.mode)
        #expect((answer.disposition?.isIgnored ?? false) == scenario.ignored)
        #expect(answer.reservedInset == scenario.inset)
        if let guideTop = scenario.guideTop { #expect(answer.guideTop == guideTop) }
        if let guideHeight = scenario.guideHeight { #expect(answer.guideHeight == guideHeight) }
        if let slide = scenario.slide { #expect(answer.slide == slide) }
        for (time, inset) in scenario.samples {
            #expect(answer.inset(at: time) == inset, "at \(time) s")
        }
    }
}
