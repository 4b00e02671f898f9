/// Key actions are stored as their QMK spelling (`"LSFT(KC_1)"`), read back with `KeyAction(parsing:)`.
extension KeyAction: Codable {
    package init(from decoder: any Decoder) throws {
        try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
