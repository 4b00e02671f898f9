import Testing

@testable import InsetCore

@Suite("Animation curves")
struct TimingCurveTests {
    @Test("known raw values map to their curves; 7 and unknown values to ease-in-out")
    func mapping() {
        #expect(AnimationCurve(rawValue: 0).timing == .easeInOut)
        #expect(AnimationCurve(rawValue: 1).timing == .easeIn)
        #expect(AnimationCurve(rawValue: 2).timing == .easeOut)
        #expect(AnimationCurve(rawValue: 3).timing == .linear)
        #expect(AnimationCurve(rawValue: 7).timing == .easeInOut)
        #expect(AnimationCurve(rawValue: -4).timing == .easeInOut)
        #expect(AnimationCurve(rawValue: 7).description == "7 (keyboard)")
        #expect(AnimationCurve(rawValue: 12).description == "12 (unknown(12))")
    }

    @Test("ends are exact; time outside 0...1 is clamped; NaN counts as the end")
    func ends() {
        for curve in [TimingCurve.easeIn, .easeOut, .easeInOut, .linear] {
            #expect(curve.progress(0) == 0)
            #expect(curve.progress(1) == 1)
            #expect(curve.progress(-3) == 0)
            #expect(curve.progress(7) == 1)
            #expect(curve.progress(.nan) == 1)
        }
    }

    @Test("ease-in at half time matches the CSS reference value 0.3154 (bisection outside this code)")
    func easeInReference() {
        #expect(abs(TimingCurve.easeIn.progress(0.5) - 0.3153568) < 1e-6)
    }

    @Test("progress never decreases", arguments: [TimingCurve.easeIn, .easeOut, .easeInOut, .linear])
    func monotonic(curve: TimingCurve) {
        var previous = 0.0
        for step in 1...200 {
            let value = curve.progress(Double(step) / 200)
            #expect(value >= previous - 1e-12)
            previous = value
        }
    }

    @Test("control points outside 0...1 in time are clamped, non-finite ones replaced")
    func clamping() {
        let curve = TimingCurve(x1: -1, y1: .nan, x2: 2, y2: .infinity)
        #expect(curve == TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1))
    }

    @Test("an animation's value is from before, to after and at the end")
    func animationValue() {
        let animation = InsetAnimation(from: 100, to: 300, duration: 0.5, curve: .linear)
        #expect(animation.value(at: -0.1) == 100)
        #expect(animation.value(at: 0.25) == 200)
        #expect(animation.value(at: 0.5) == 300)
        #expect(animation.value(at: .nan) == 300)
        #expect(InsetAnimation(from: 100, to: 0, duration: 0, curve: .linear).value(at: 0) == 0)
    }
}
