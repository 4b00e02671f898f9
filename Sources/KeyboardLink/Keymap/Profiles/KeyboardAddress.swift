/// A keyboard's Bluetooth address, `AA:BB:CC:DD:EE:FF`, which names its profile.
///
/// Accepts `:`, `-` or `_` between the six hex bytes and either case; stores upper case with colons.
package struct KeyboardAddress: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The normalized address.
    package let rawValue: String

    /// Validates and normalizes an address.
    /// - Throws: `KeymapError.invalidAddress`.
    package init(_ text: String) throws(KeymapError) {
        let parts = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "-" || $0 == "_" })
        guard parts.count == 6,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isHexDigit && $0.isASCII } })
        else { throw .invalidAddress(text) }
        rawValue = parts.map { $0.uppercased() }.joined(separator: ":")
    }

    /// The address as a file name element: `AA_BB_CC_DD_EE_FF`.
    package var fileStem: String { rawValue.replacingColons }

    package var description: String { rawValue }

    package static func < (lhs: KeyboardAddress, rhs: KeyboardAddress) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension String {
    fileprivate var replacingColons: String {
        String(map { $0 == ":" ? "_" : $0 })
    }
}
