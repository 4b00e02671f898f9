/// `zmk.studio.Response`: what the keyboard sends, either the answer to a request or an unsolicited notification.
package enum StudioResponse: ProtobufMessage, Equatable {
    /// Field 1: the answer to the request with the same id.
    case requestResponse(StudioRequestResponse)
    /// Field 2: an event the keyboard reports on its own (lock state, unsaved changes).
    case notification(StudioNotification)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .requestResponse(let response): writer.writeMessage(response, field: 1)
        case .notification(let notification): writer.writeMessage(notification, field: 2)
        }
    }

    /// - Throws: ProtobufError.missingField when the message carries neither a response nor a notification.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioResponse?
        while let field = try reader.nextField() {
            switch field {
            case 1: decoded = .requestResponse(try reader.readMessage())
            case 2: decoded = .notification(try reader.readMessage())
            default: break
            }
        }
        guard let decoded else { throw .missingField(message: "zmk.studio.Response", field: "type") }
        self = decoded
    }
}
