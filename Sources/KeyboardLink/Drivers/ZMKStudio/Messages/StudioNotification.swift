/// `zmk.studio.Notification`: an event the keyboard sends without being asked.
package enum StudioNotification: ProtobufMessage, Equatable {
    /// Field 2: a core event (lock state changed).
    case core(StudioCoreNotification)
    /// Field 5: a keymap event (unsaved changes status).
    case keymap(StudioKeymapNotification)
    /// A subsystem this code does not know (its field number).
    case unrecognized(field: Int)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .core(let notification): writer.writeMessage(notification, field: 2)
        case .keymap(let notification): writer.writeMessage(notification, field: 5)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when the notification is empty.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        self = try reader.readOneOf(
            message: "zmk.studio.Notification", oneof: "subsystem", unrecognized: { .unrecognized(field: $0) }
        ) {
            reader, field throws(ProtobufError) in
            switch field {
            case 2: .core(try reader.readMessage())
            case 5: .keymap(try reader.readMessage())
            default: nil
            }
        }
    }
}
