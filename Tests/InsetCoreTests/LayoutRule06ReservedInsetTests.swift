import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 6: reserved inset = max(0, overlap - SB).
@Suite("Rule 6: reserved inset")
struct LayoutRule06ReservedInsetTests {
    @Test(
        "overlap 355 with various bottom safe areas",
        arguments: [(0.0, 355.0), (20.0, 335.0), (34.0, 321.0), (355.0, 0.0), (400.0, 0.0)]
    )
    func minusSafeArea(safeAreaBottom: Double, inset: Double) {
        var state = LayoutFixtures.state(safeAreaBottom: safeAreaBottom)
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard))
        #expect(state.overlap == 355)
        #expect(state.reservedInset == inset)
    }

    @Test("usesBottomSafeArea moves the guide, not the reserved inset")
    func independentOfGuideOption() {
        let state = LayoutFixtures.scenario1(options: LayoutOptions(usesBottomSafeArea: false))
        #expect(state.reservedInset == 335)
    }

    @Test("hidden reserves nothing")
    func hidden() {
        #expect(LayoutFixtures.state().reservedInset == 0)
    }
}
