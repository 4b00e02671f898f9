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

extension SeededRandom {
    /// One to four random changes to a text, for fuzzing a parser: flip a bit, insert a byte, delete a run, duplicate
    /// a run, truncate, or splice in one of `tokens` (the grammar's own pieces, so that mutants get past the first
    /// check).
    package mutating func mutated(_ text: [UInt8], splicing tokens: [String]) -> [UInt8] {
        var bytes = text
        for _ in 0...Int.random(in: 0...3, using: &self) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &self)
            switch Int.random(in: 0..<7, using: &self) {
            case 0 where !bytes.isEmpty:
                bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &self))
            case 1:
                bytes.insert(UInt8.random(in: 0...255, using: &self), at: position)
            case 2 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...64, using: &self))
                bytes.removeSubrange(position..<end)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...256, using: &self))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            case 4:
                bytes = Array(bytes.prefix(position))
            default:
                bytes.insert(contentsOf: Array((tokens.randomElement(using: &self) ?? "").utf8), at: position)
            }
        }
        return bytes
    }
}
