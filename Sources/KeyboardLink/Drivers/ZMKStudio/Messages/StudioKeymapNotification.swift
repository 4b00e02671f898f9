/// `zmk.keymap.Notification`.
package enum StudioKeymapNotification: ProtobufMessage, Equatable {
    /// Field 1: staged changes now exist (true) or were saved or discarded (false).
    case unsavedChangesStatusChanged(Bool)
    /// A member this code does not know (its field number).
    case unrecognized(field: Int)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .unsavedChangesStatusChanged(let flag): writer.writeBool(flag, field: 1, emitDefault: true)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when the notification is empty.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        self = try reader.readOneOf(
            message: "zmk.keymap.Notification", oneof: "notification_type", unrecognized: { .unrecognized(field: $0) }
        ) {
            reader, field throws(ProtobufError) in
            switch field {
            case 1: .unsavedChangesStatusChanged(try reader.readBool())
            default: nil
            }
        }
    }
}
