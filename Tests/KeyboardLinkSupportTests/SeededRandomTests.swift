import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkSupport

@Suite("SplitMix64 generator")
struct LayoutRandomTests {
    @Test("matches the published SplitMix64 sequence for seed 0")
    func referenceSequence() {
        // First outputs of the reference C implementation (Vigna, splitmix64.c) seeded with 0.
        var random = SeededRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("the same seed repeats, another seed differs")
    func seeding() {
        var first = SeededRandom(seed: 42)
        var second = SeededRandom(seed: 42)
        var third = SeededRandom(seed: 43)
        let a = (0..<4).map { _ in first.next() }
        #expect(a == (0..<4).map { _ in second.next() })
        #expect(a != (0..<4).map { _ in third.next() })
    }
}
