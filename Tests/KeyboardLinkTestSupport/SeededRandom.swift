/// SplitMix64 (Steele, Lea and Flood): a small deterministic random number generator, so that property tests, fuzz
/// tests and random round trips repeat exactly from their seed.
package struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One of `items`, uniformly drawn (`items` must not be empty).
    package mutating func pick<Element>(_ items: [Element]) -> Element {
        items[Int(next() % UInt64(items.count))]
    }

    /// True with probability `chance`.
    package mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }
}
