import KeyboardLinkTestSupport

@testable import InsetCore

extension SeededRandom {
    /// A uniformly drawn number in `range`, rounded to a quarter point like real frames (0.5 pt on 2x screens).
    mutating func points(_ range: ClosedRange<Double>) -> Double {
        (Double.random(in: range, using: &self) * 4).rounded() / 4
    }
}
