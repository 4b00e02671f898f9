/// "Did you mean" for command lines: the known name closest to what was typed.
package enum NearestName {
    /// The candidate closest to `input` by edit distance (insertions, deletions, substitutions and swaps of
    /// neighbours), or nil when none is within a third of the longer name (at least 1, at most 3 edits). A
    /// candidate that starts with the input (an abbreviation) wins over the rest. Ties go to the earlier candidate.
    package static func nearest(to input: String, in candidates: [String]) -> String? {
        guard !input.isEmpty, input.unicodeScalars.count <= 64 else { return nil }
        let prefixed = candidates.filter { $0.hasPrefix(input) }
        if prefixed.count == 1 { return prefixed[0] }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = Self.distance(input, candidate)
            let limit = min(3, max(1, max(input.count, candidate.count) / 3))
            guard distance <= limit else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// The optimal string alignment distance between two texts.
    package static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.unicodeScalars)
        let b = Array(rhs.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var twoBack = Array(repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
