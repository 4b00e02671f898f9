/// Macros are stored as their text form (`"ctrl+c, delay 50"`), read back with `Macro(parsing:)`.
extension Macro: Codable {
    package init(from decoder: any Decoder) throws {
        try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
