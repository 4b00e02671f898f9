/// `zmk.keymap.Notification`.
public enum StudioKeymapNotification: ProtobufMessage, Equatable {
    /// Field 1: staged changes now exist (true) or were saved or discarded (false).
    case unsavedChangesStatusChanged(Bool)
    /// A member this code does not know (its field number).
    case unrecognized(field: Int)

    public func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .unsavedChangesStatusChanged(let flag): writer.writeBool(flag, field: 1, emitDefault: true)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when the notification is empty.
    public init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioKeymapNotification?
        var unknownField: Int?
        while let field = try reader.nextField() {
            switch field {
            case 1: decoded = .unsavedChangesStatusChanged(try reader.readBool())
            default: unknownField = unknownField ?? field
            }
        }
        if let decoded {
            self = decoded
        } else if let unknownField {
            self = .unrecognized(field: unknownField)
        } else {
            throw .missingField(message: "zmk.keymap.Notification", field: "notification_type")
        }
    }
}
