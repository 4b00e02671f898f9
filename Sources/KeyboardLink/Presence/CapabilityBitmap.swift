/// An evdev capability bitmap (`B: KEY=...` in `/proc/bus/input/devices`, or `capabilities/key` in sysfs).
///
/// The kernel prints it as space-separated hex words, most significant first, leading zero words dropped, words
/// not zero-padded; each word is a kernel `long` (64 bits on the machines kblink targets). The last word printed
/// is word 0, and bit n is `word[n / 64] >> (n % 64) & 1`.
package struct CapabilityBitmap: Hashable, Sendable, CustomStringConvertible {
    /// The words, word 0 (bits 0-63) first.
    package let words: [UInt64]

    /// An empty bitmap.
    package static let empty = CapabilityBitmap(words: [])

    /// Creates a bitmap from its words, word 0 first.
    package init(words: [UInt64]) {
        var trimmed = words
        while trimmed.last == 0 { trimmed.removeLast() }
        self.words = trimmed
    }

    /// Parses the kernel's text form, e.g. `402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe`.
    /// - Throws: ``CapabilityBitmapError`` for an empty text, a word that is not hex or longer than 16 digits.
    package init(parsing text: some StringProtocol) throws(CapabilityBitmapError) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !fields.isEmpty else { throw CapabilityBitmapError(text: String(text), reason: "no words") }
        var words: [UInt64] = []
        words.reserveCapacity(fields.count)
        for field in fields.reversed() {
            guard field.utf8.count <= 16 else {
                throw CapabilityBitmapError(text: String(text), reason: "word \"\(field)\" is longer than 64 bits")
            }
            guard field.utf8.allSatisfy(\.isHexDigitASCII), let word = UInt64(field, radix: 16) else {
                throw CapabilityBitmapError(text: String(text), reason: "word \"\(field)\" is not hex")
            }
            words.append(word)
        }
        self.init(words: words)
    }

    /// Word `index` (bits `64 * index` ..< `64 * (index + 1)`); 0 beyond the last word.
    package func word(_ index: Int) -> UInt64 {
        index >= 0 && index < words.count ? words[index] : 0
    }

    /// Whether bit `bit` is set; false for a negative bit.
    package func contains(_ bit: Int) -> Bool {
        guard bit >= 0 else { return false }
        return word(bit / 64) >> UInt64(bit % 64) & 1 == 1
    }

    /// The kernel's text form (`0` when empty).
    package var description: String {
        guard !words.isEmpty else { return "0" }
        return words.reversed().map { String($0, radix: 16) }.joined(separator: " ")
    }
}
