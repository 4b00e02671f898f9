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

extension BatteryReading: DBusRepresentable {
    /// `(sy)`: the part name and the percentage.
    public static var dbusType: DBusType { .structure([.string, .byte]) }

    /// Decodes `(sy)`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for another type or a percentage above 100.
    public init(dbusValue: DBusValue) throws {
        let fields = try DBusStruct<String, UInt8>(dbusValue: dbusValue).fields
        do {
            self.init(part: fields.0, level: try BatteryLevel(percentage: fields.1))
        } catch {
            throw DBusError.invalidArgs(error.description)
        }
    }

    /// Encodes as `(sy)`.
    public var dbusValue: DBusValue { .structure([.string(part), .byte(level.percentage)]) }
}
