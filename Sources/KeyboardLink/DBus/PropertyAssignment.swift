/// A `Properties.Set` call's arguments (`ssv`), read in two steps: the interface, the property and the type the
/// variant declares first, so that the call can be routed and its type checked against the property's; the value only
/// when ``value()`` is asked for. A value of the wrong type is never decoded.
struct PropertyAssignment {
    /// The interface, as the caller wrote it (checked by the server).
    let interface: String
    /// The property's name, as the caller wrote it (checked by the server).
    let property: String
    /// The type of the value the variant holds.
    let valueType: DBusType
    /// What reads the value: a wire reader positioned at it, or the value a message built here holds.
    private let source: Source

    private enum Source {
        case wire(DBusWireReader)
        case built(DBusValue)
    }

    /// Reads the names and the variant's type of a `Set` call.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the body is not `ssv` or the variant's type is not one complete
    ///   type.
    init(_ message: Message) throws {
        switch message.storage {
        case .wire(let wire):
            guard wire.signature.rawValue == "ssv" else {
                throw DBusError.invalidArgs("Set takes arguments 'ssv', got '\(wire.signature.rawValue)'")
            }
            var reader = wire.reader()
            interface = try reader.readText(lengthBytes: 4)
            property = try reader.readText(lengthBytes: 4)
            let declared = try Signature(try reader.readText(lengthBytes: 1))
            guard declared.types.count == 1 else {
                throw DBusError.invalidArgs("the value's variant holds '\(declared.rawValue)', not one complete type")
            }
            valueType = declared.types[0]
            source = .wire(reader)
        case .values(let values):
            guard values.count == 3, case .string(let interface) = values[0], case .string(let property) = values[1],
                case .variant(let value) = values[2]
            else {
                throw DBusError.invalidArgs("Set takes arguments 'ssv', got '\(message.signature.rawValue)'")
            }
            self.interface = interface
            self.property = property
            valueType = value.type
            source = .built(value)
        }
    }

    /// Decodes the value (call once its type is known to be the property's).
    func value() throws -> DBusValue {
        switch source {
        case .wire(var reader): try reader.value(valueType)
        case .built(let value): value
        }
    }
}
