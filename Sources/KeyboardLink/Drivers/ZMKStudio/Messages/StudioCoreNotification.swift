/// `zmk.core.Notification`.
package enum StudioCoreNotification: ProtobufMessage, Equatable {
    /// Field 1: the keyboard was locked or unlocked (the user pressed `&studio_unlock`, or a timeout).
    case lockStateChanged(StudioLockState)
    /// A member this code does not know (its field number).
    case unrecognized(field: Int)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .lockStateChanged(let state): writer.writeEnum(state, field: 1, emitDefault: true)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when the notification is empty.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        self = try reader.readOneOf(
            message: "zmk.core.Notification", oneof: "notification_type", unrecognized: { .unrecognized(field: $0) }
        ) {
            reader, field throws(ProtobufError) in
            switch field {
            case 1: .lockStateChanged(try reader.readEnum())
            default: nil
            }
        }
    }
}
