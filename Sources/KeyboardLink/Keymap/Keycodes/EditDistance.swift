/// Edit distance and nearest-name search, for "did you mean" suggestions.
enum EditDistance {
    /// The number of single-character insertions, deletions, substitutions and swaps of neighbours between two
    /// strings (optimal string alignment distance), so that the common typo `LSTF` is one edit from `LSFT`.
    static func between(_ lhs: String, _ rhs: String) -> Int {
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

    /// The candidate closest to `input` (compared upper-cased), or nil when nothing is reasonably close.
    ///
    /// "Reasonably close" means at most a third of the longer name differs (at least 1, at most 4 edits), so a
    /// typo gets a suggestion and random text does not. Ties go to the earlier candidate.
    static func nearest(to input: String, in candidates: some Sequence<String>) -> String? {
        let query = input.uppercased()
        guard !query.isEmpty, query.unicodeScalars.count <= 64 else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = between(query, candidate.uppercased())
            let limit = min(4, max(1, max(query.count, candidate.count) / 3))
            guard distance <= limit else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.name
    }
}
