import KeyboardLinkSupport

/// Edit distance and nearest-name search, for "did you mean" suggestions.
enum EditDistance {
    /// The number of single-character insertions, deletions, substitutions and swaps of neighbours between two
    /// strings (optimal string alignment distance), so that the common typo `LSTF` is one edit from `LSFT`.
    static func between(_ lhs: String, _ rhs: String) -> Int {
        NearestName.distance(lhs, rhs)
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
