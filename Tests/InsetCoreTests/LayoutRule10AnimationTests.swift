import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 10: inset(t) = from + (to - from) * f(t / duration); duration 0 on hide applies at once, any other zero
/// duration means 0.25 s; events whose target equals the current value emit nothing.
@Suite("Rule 10: animation")
struct LayoutRule10AnimationTests {
    @Test("a show animates from the previous value to the target with the event's duration and curve")
    func show() throws {
        var state = LayoutFixtures.state()
        let animationResult = state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard, duration: 0.4))
        let animation = try #require(animationResult)
        #expect(animation == InsetAnimation(from: 0, to: 335, duration: 0.4, curve: .keyboard))
        #expect(state.inset(at: 0) == 0)
        #expect(state.inset(at: 0.4) == 335)
        #expect(state.inset(at: -1) == 0)
        #expect(state.inset(at: 3) == 335)
    }

    @Test("scenario 9 with a linear curve: 335 -> 0, 167.5 at half time (335 - 335 * 0.5)")
    func linearHalfTime() throws {
        var state = LayoutFixtures.scenario1()
        let animationResult = state.consume(LayoutFixtures.hide(curve: .linear))
        let animation = try #require(animationResult)
        #expect(animation.from == 335)
        #expect(animation.to == 0)
        #expect(state.inset(at: 0.125) == 167.5)
        #expect(state.inset(at: 0.0625) == 251.25)  // 335 - 335 * 0.25
    }

    @Test(
        "curves at a quarter, half and three quarters of 0.25 s, showing 0 -> 335",
        arguments: [
            // Reference progress of the CSS/Core Animation cubic Béziers, solved by bisection outside this code:
            // ease-in (0.42,0,1,1), ease-out (0,0,0.58,1), ease-in-out (0.42,0,0.58,1).
            (AnimationCurve.easeIn, [0.0934647, 0.3153568, 0.6218619]),
            (.easeOut, [0.3781381, 0.6846432, 0.9065353]),
            (.easeInOut, [0.1291619, 0.5, 0.8708381]),
            (.keyboard, [0.1291619, 0.5, 0.8708381]),  // 7 animates like ease-in-out (documented choice)
            (AnimationCurve(rawValue: 99), [0.1291619, 0.5, 0.8708381]),  // unknown: ease-in-out
            (.linear, [0.25, 0.5, 0.75]),
        ]
    )
    func curves(curve: AnimationCurve, progress: [Double]) throws {
        var state = LayoutFixtures.state()
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard, curve: curve))
        for (index, fraction) in [0.25, 0.5, 0.75].enumerated() {
            let expected = 335 * progress[index]
            #expect(abs(state.inset(at: 0.25 * fraction) - expected) < 1e-3)
        }
    }

    @Test("duration 0 on hide applies at once")
    func zeroOnHide() throws {
        var state = LayoutFixtures.scenario1()
        let animationResult = state.consume(LayoutFixtures.hide(duration: 0))
        let animation = try #require(animationResult)
        #expect(animation.isImmediate)
        #expect(animation.duration == 0)
        #expect(state.inset(at: 0) == 0)
    }

    @Test("any other zero duration means 0.25 s", arguments: [KeyboardEventKind.willShow, .willChangeFrame])
    func zeroOtherwise(kind: KeyboardEventKind) throws {
        var state = LayoutFixtures.state()
        let event = KeyboardEvent(kind: kind, endFrame: LayoutFixtures.dockedKeyboard, duration: 0)
        let animationResult = state.consume(event)
        let animation = try #require(animationResult)
        #expect(animation.duration == 0.25)
        #expect(state.inset(at: 0) == 0)
    }

    @Test("a negative or NaN duration from a broken sender counts as 0", arguments: [-1.0, .nan, .infinity])
    func brokenDuration(duration: Double) throws {
        var state = LayoutFixtures.state()
        let animationResult = state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard, duration: duration))
        let animation = try #require(animationResult)
        #expect(animation.duration == 0.25)
    }

    @Test("an event whose target equals the current value emits nothing")
    func sameTarget() {
        var state = LayoutFixtures.scenario1()
        #expect(state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard)) == nil)
        #expect(state.animation == nil)
        #expect(state.lastDisposition == .applied)
        #expect(state.inset(at: 0) == 335)

        var hidden = LayoutFixtures.state()
        #expect(hidden.consume(LayoutFixtures.hide()) == nil)
        state.consume(LayoutFixtures.hide())
        #expect(state.consume(KeyboardEvent(kind: .didHide, endFrame: LayoutFixtures.offScreenKeyboard)) == nil)
    }

    @Test("a change mid-way starts from the previous target (the state has no clock)")
    func chained() throws {
        var state = LayoutFixtures.scenario1()
        let taller = Rect(x: 0, y: 900, width: 1024, height: 466)
        let animationResult = state.consume(LayoutFixtures.change(taller))
        let animation = try #require(animationResult)
        #expect(animation.from == 335)
        #expect(animation.to == 446)  // 466 - 20
    }

    @Test("non-event inputs apply at once")
    func atOnce() throws {
        var state = LayoutFixtures.state()
        state.consume(LayoutFixtures.show(LayoutFixtures.shortcutBar))
        let animationResult = state.setHardwareKeyboardAttached(true)
        let animation = try #require(animationResult)
        #expect(animation == InsetAnimation(from: 35, to: 0, duration: 0, curve: .linear))
        #expect(state.inset(at: 0) == 0)
    }
}
