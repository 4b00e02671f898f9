/// The charge of one battery of a keyboard: one entry of the `Battery` property (`a(sy)`).
package struct BatteryReading: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The part the battery powers: `main`, `left`, `right`, `peripheral-0`, `part2`... (see ``BatteryPartNamer``).
    package var part: String
    /// The charge.
    package var level: BatteryLevel

    /// Creates a reading.
    package init(part: String, level: BatteryLevel) {
        self.part = part
        self.level = level
    }

    /// `left: 80%`.
    package var description: String { "\(part): \(level)" }
}
