/// A dconf key's value as the agent reads it: the keys it handles are booleans.
package enum DconfValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Not set in the user's database: the schema's default applies.
    case unset
    /// A boolean.
    case boolean(Bool)
    /// A value of another GVariant type (its type string).
    case other(type: String)

    /// Decodes a serialized `v` GVariant: the content, a zero byte, then the type string.
    package init(serializedVariant bytes: [UInt8]) {
        guard let separator = bytes.lastIndex(of: 0) else {
            self = .other(type: "?")
            return
        }
        let type = String(decoding: bytes[(separator + 1)...], as: UTF8.self)
        let content = bytes[..<separator]
        guard type == "b", content.count == 1, content.first! <= 1 else {
            self = .other(type: type)
            return
        }
        self = .boolean(content.first == 1)
    }

    /// What the key reads as, given the schema's default for an unset key.
    package func effective(default fallback: Bool) -> Bool? {
        switch self {
        case .unset: fallback
        case .boolean(let value): value
        case .other: nil
        }
    }

    /// Reads the state file's form: `true`, `false`, `unset` or `type:s`.
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        switch text {
        case "true": self = .boolean(true)
        case "false": self = .boolean(false)
        case "unset": self = .unset
        case _ where text.hasPrefix("type:"): self = .other(type: String(text.dropFirst(5)))
        default:
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a dconf value: \(text.prefix(40))"))
        }
    }

    /// Writes `true`, `false`, `unset` or `type:s`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .unset: try container.encode("unset")
        case .boolean(let value): try container.encode(value ? "true" : "false")
        case .other(let type): try container.encode("type:" + type)
        }
    }

    /// `true`, `false`, `unset`, `a value of type s`.
    package var description: String {
        switch self {
        case .unset: "unset"
        case .boolean(let value): value ? "true" : "false"
        case .other(let type): "a value of type \(type)"
        }
    }
}
