/// The id of a layout (`aula-f87`, `tkl-ansi`): 1 to 64 of `a-z 0-9 - _ .`; upper-case input is lower-cased.
package struct LayoutID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The validated, lower-case text.
    package let rawValue: String

    /// Validates a layout id.
    /// - Throws: `KeymapError.invalidLayout`.
    package init(_ text: String) throws(KeymapError) {
        let lower = text.lowercased()
        guard (1...64).contains(lower.utf8.count),
            lower.utf8.allSatisfy({
                (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
            })
        else {
            throw .invalidLayout("'\(KeymapError.printable(text))' is not a layout id: use 1 to 64 of a-z 0-9 - _ .")
        }
        rawValue = lower
    }

    package var description: String { rawValue }

    package static func < (lhs: LayoutID, rhs: LayoutID) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
