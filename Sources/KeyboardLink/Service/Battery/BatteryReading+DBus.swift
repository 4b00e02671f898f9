import KeyboardLinkDBus
import KeyboardLinkFirmware

extension BatteryReading: DBusRepresentable {
    /// `(sy)`: the part name and the percentage.
    package static var dbusType: DBusType { .structure([.string, .byte]) }

    /// Decodes `(sy)`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for another type or a percentage above 100.
    package init(dbusValue: DBusValue) throws {
        let fields = try DBusStruct<String, UInt8>(dbusValue: dbusValue).fields
        do {
            self.init(part: fields.0, level: try BatteryLevel(percentage: fields.1))
        } catch {
            throw DBusError.invalidArgs(error.description)
        }
    }

    /// Encodes as `(sy)`.
    package var dbusValue: DBusValue { .structure([.string(part), .byte(level.percentage)]) }
}
