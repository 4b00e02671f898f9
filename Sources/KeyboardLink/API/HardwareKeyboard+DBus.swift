import KeyboardLinkDBus
import KeyboardLinkPresence

extension HardwareKeyboard: DBusRepresentable {
    /// `(sss)`: source, id, name.
    public static var dbusType: DBusType { .structure([.string, .string, .string]) }

    /// Decodes `(sss)`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for another type or an unknown source.
    public init(dbusValue: DBusValue) throws {
        let fields = try DBusStruct<String, String, String>(dbusValue: dbusValue).fields
        guard let source = Source(rawValue: fields.0) else {
            throw DBusError.invalidArgs("unknown hardware keyboard source \"\(fields.0)\"; expected bluetooth or evdev")
        }
        self.init(source: source, id: fields.1, name: fields.2)
    }

    /// Encodes as `(sss)`.
    public var dbusValue: DBusValue { .structure([.string(source.rawValue), .string(id), .string(name)]) }
}
