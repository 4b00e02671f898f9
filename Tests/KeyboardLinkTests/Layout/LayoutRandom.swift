/// SplitMix64 (Steele, Lea and Flood), a small seeded generator: the property tests repeat exactly per seed.
struct LayoutRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly drawn number in `range`, rounded to a quarter point like real frames (0.5 pt on 2x screens).
    mutating func points(_ range: ClosedRange<Double>) -> Double {
        (Double.random(in: range, using: &self) * 4).rounded() / 4
    }

    /// True with probability `chance`.
    mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }
}
