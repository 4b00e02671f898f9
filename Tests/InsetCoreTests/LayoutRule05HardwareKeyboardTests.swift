import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 5: with a hardware keyboard, an overlap up to `accessoryBarMax` is a shortcut bar and counts as 0.
@Suite("Rule 5: a hardware keyboard zeroes the shortcut bar")
struct LayoutRule05HardwareKeyboardTests {
    @Test("the 55 pt shortcut bar counts as 0")
    func barIsZero() {
        var state = LayoutFixtures.state(hardware: true)
        state.consume(LayoutFixtures.show(LayoutFixtures.shortcutBar))
        #expect(state.mode == .docked)
        #expect(state.overlap == 0)
        #expect(state.reservedInset == 0)
        #expect(state.guideHeight == 20)  // back to the safe area
    }

    @Test("reserveAccessoryBar keeps what iOS reports: 55 - SB 20 = 35")
    func reserveAccessoryBar() {
        var state = LayoutFixtures.state(options: LayoutOptions(reserveAccessoryBar: true), hardware: true)
        state.consume(LayoutFixtures.show(LayoutFixtures.shortcutBar))
        #expect(state.overlap == 55)
        #expect(state.reservedInset == 35)
    }

    @Test(
        "the limit is inclusive: 80 pt is a bar, 81 pt is a keyboard",
        arguments: [(80.0, 0.0), (81.0, 61.0)]  // (overlap, expected inset = overlap - SB 20 when reserved)
    )
    func limit(overlap: Double, inset: Double) {
        var state = LayoutFixtures.state(hardware: true)
        state.consume(LayoutFixtures.show(Rect(x: 0, y: 1366 - overlap, width: 1024, height: 355)))
        #expect(state.reservedInset == inset)
    }

    @Test("a full soft keyboard summoned on purpose is still reserved")
    func fullKeyboard() {
        let state = LayoutFixtures.scenario1(hardware: true)
        #expect(state.overlap == 355)
        #expect(state.reservedInset == 335)
    }

    @Test("a smaller accessoryBarMax makes the 55 pt bar count")
    func smallerLimit() {
        var state = LayoutFixtures.state(options: LayoutOptions(accessoryBarMax: 40), hardware: true)
        state.consume(LayoutFixtures.show(LayoutFixtures.shortcutBar))
        #expect(state.reservedInset == 35)
    }

    @Test("without a hardware keyboard the bar is reserved")
    func noHardwareKeyboard() {
        var state = LayoutFixtures.state(hardware: false)
        state.consume(LayoutFixtures.show(LayoutFixtures.shortcutBar))
        #expect(state.reservedInset == 35)
    }

    @Test("the overlap, not the keyboard height, is compared: a Stage Manager strip under 80 pt is a bar")
    func comparesOverlap() {
        // Window bottom 1050: the 355 pt keyboard covers 39 pt of it.
        var state = LayoutFixtures.state(
            safeAreaBottom: 0, window: Rect(x: 100, y: 100, width: 700, height: 950), hardware: true)
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.reservedInset == 0)
        state.setHardwareKeyboardAttached(false)
        #expect(state.reservedInset == 39)
    }
}
