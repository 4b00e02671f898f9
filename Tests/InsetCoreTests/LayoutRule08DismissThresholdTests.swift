import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 8: dismiss threshold y = guide top - max(0, keyboardDismissPadding).
@Suite("Rule 8: dismiss threshold")
struct LayoutRule08DismissThresholdTests {
    @Test(
        "docked (guide top 1011) with paddings; negatives count as 0",
        arguments: [(0.0, 1011.0), (44.0, 967.0), (-30.0, 1011.0), (0.5, 1010.5)]
    )
    func docked(padding: Double, threshold: Double) {
        let state = LayoutFixtures.scenario1(options: LayoutOptions(keyboardDismissPadding: padding))
        #expect(state.dismissThreshold == threshold)
    }

    @Test("hidden: from the safe-area guide, 1346 - 10 = 1336")
    func hidden() {
        let state = LayoutFixtures.state(options: LayoutOptions(keyboardDismissPadding: 10))
        #expect(state.dismissThreshold == 1336)
    }

    @Test("follows the guide of a followed floating keyboard: 700 - 12 = 688")
    func floating() {
        let options = LayoutOptions(followsUndockedKeyboard: true, keyboardDismissPadding: 12)
        var state = LayoutFixtures.state(options: options)
        state.consume(LayoutFixtures.show(LayoutFixtures.floatingKeyboard))
        #expect(state.dismissThreshold == 688)
    }
}
