/// The stable name of a physical key in a layout (`ESC`, `F1`, `A`, `1`, `KP_1`, `LSFT`, `FN`).
///
/// Names are 1 to 32 of `A-Z 0-9 _`; lower-case input is upper-cased, so `esc` names `ESC`.
package struct KeyName: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The validated, upper-case text.
    package let rawValue: String

    /// Validates and upper-cases a key name.
    /// - Throws: `KeymapError.invalidKeyName`.
    package init(_ text: String) throws(KeymapError) {
        let upper = text.uppercased()
        guard !upper.isEmpty else { throw .invalidKeyName(text, reason: "it is empty") }
        guard upper.utf8.count <= 32 else { throw .invalidKeyName(text, reason: "longer than 32 characters") }
        guard upper.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || $0 == 0x5F }) else {
            throw .invalidKeyName(text, reason: "use letters, digits and '_' only")
        }
        rawValue = upper
    }

    package var description: String { rawValue }

    package static func < (lhs: KeyName, rhs: KeyName) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
