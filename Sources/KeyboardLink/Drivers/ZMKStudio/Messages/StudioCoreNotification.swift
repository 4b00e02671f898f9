/// `zmk.core.Notification`.
public enum StudioCoreNotification: ProtobufMessage, Equatable {
    /// Field 1: the keyboard was locked or unlocked (the user pressed `&studio_unlock`, or a timeout).
    case lockStateChanged(StudioLockState)
    /// A member this code does not know (its field number).
    case unrecognized(field: Int)

    public func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .lockStateChanged(let state): writer.writeEnum(state, field: 1, emitDefault: true)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when the notification is empty.
    public init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioCoreNotification?
        var unknownField: Int?
        while let field = try reader.nextField() {
            switch field {
            case 1: decoded = .lockStateChanged(try reader.readEnum())
            default: unknownField = unknownField ?? field
            }
        }
        if let decoded {
            self = decoded
        } else if let unknownField {
            self = .unrecognized(field: unknownField)
        } else {
            throw .missingField(message: "zmk.core.Notification", field: "notification_type")
        }
    }
}
