import KeyboardLinkDBus
import KeyboardLinkFirmware

extension BatteryReading: DBusWireMapped {
    /// `(sy)`: the part name and the percentage.
    package typealias WireForm = DBusStruct<String, UInt8>

    /// A reading from `(sy)`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for a percentage above 100.
    package init(wireForm: WireForm) throws {
        let fields = wireForm.fields
        do {
            self.init(part: fields.0, level: try BatteryLevel(percentage: fields.1))
        } catch {
            throw DBusError.invalidArgs(error.description)
        }
    }

    /// The reading as `(sy)`.
    package var wireForm: WireForm { WireForm(part, level.percentage) }
}
