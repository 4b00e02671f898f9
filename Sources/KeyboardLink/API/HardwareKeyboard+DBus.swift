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

extension HardwareKeyboardReason: DBusRepresentable {
    /// `(sssbs)`: source, id, name, counts, reason.
    public static var dbusType: DBusType { .structure([.string, .string, .string, .boolean, .string]) }

    /// Decodes `(sssbs)`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for another type or an unknown source.
    public init(dbusValue: DBusValue) throws {
        guard case .structure(let fields) = dbusValue, fields.count == 5, let source = fields[0].stringValue,
            let id = fields[1].stringValue, let name = fields[2].stringValue, let counts = fields[3].boolValue,
            let reason = fields[4].stringValue
        else {
            throw DBusError.invalidArgs("expected a hardware keyboard reason (sssbs), got \(dbusValue.type)")
        }
        guard let parsed = HardwareKeyboard.Source(rawValue: source) else {
            throw DBusError.invalidArgs("unknown hardware keyboard source \"\(source)\"; expected bluetooth or evdev")
        }
        self.init(source: parsed, id: id, name: name, counts: counts, reason: reason)
    }

    /// Encodes as `(sssbs)`.
    public var dbusValue: DBusValue {
        .structure([.string(source.rawValue), .string(id), .string(name), .boolean(counts), .string(reason)])
    }
}
