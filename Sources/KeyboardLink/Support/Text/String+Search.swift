/// Substring search and replacement over the standard library alone.
///
/// The standard `contains(_:)` with a string argument and `replacing(_:with:)` live in `_StringProcessing`, whose
/// use links it and the regex parser (about 1 MB of code) into kblinkd; these compare UTF-8 bytes, which is exact for
/// the ASCII patterns kblink searches for.
extension StringProtocol {
    /// Whether `other` occurs in the text; the empty string occurs in every text.
    package func containsText(_ other: some StringProtocol) -> Bool {
        firstByteOffset(of: other) != nil
    }

    /// The UTF-8 offset of the first occurrence of `other`, or nil.
    private func firstByteOffset(of other: some StringProtocol) -> Int? {
        let needle = Array(other.utf8)
        let haystack = Array(utf8)
        guard !needle.isEmpty else { return 0 }
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

extension String {
    /// The text with every occurrence of `target` replaced by `replacement`, left to right, without overlaps;
    /// unchanged when `target` is empty.
    package func replacingEvery(_ target: some StringProtocol, with replacement: some StringProtocol) -> String {
        let needle = Array(target.utf8)
        guard !needle.isEmpty else { return self }
        let haystack = Array(utf8)
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var index = 0
        while index < haystack.count {
            if haystack.count - index >= needle.count, haystack[index] == needle[0],
                haystack[index..<(index + needle.count)].elementsEqual(needle)
            {
                result.append(contentsOf: replacement.utf8)
                index += needle.count
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
