/// The charge of one battery of a keyboard: one entry of the `Battery` property (`a(sy)`).
public struct BatteryReading: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The part the battery powers: `main`, `left`, `right`, `peripheral-0`, `part2`... (see ``BatteryPartNamer``).
    public var part: String
    /// The charge.
    public var level: BatteryLevel

    /// Creates a reading.
    public init(part: String, level: BatteryLevel) {
        self.part = part
        self.level = level
    }

    /// `left: 80%`.
    public var description: String { "\(part): \(level)" }
}
