/// A validated macro name: 1 to 32 of `A-Z a-z 0-9 _ -`, compared case-sensitively.
package struct MacroName: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The validated text.
    package let rawValue: String

    /// Validates a macro name.
    /// - Throws: `KeymapError.invalidMacroName`.
    package init(_ rawValue: String) throws(KeymapError) {
        guard (1...32).contains(rawValue.utf8.count),
            rawValue.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x5F || byte == 0x2D
            })
        else { throw .invalidMacroName(rawValue) }
        self.rawValue = rawValue
    }

    package var description: String { rawValue }

    package static func < (lhs: MacroName, rhs: MacroName) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
