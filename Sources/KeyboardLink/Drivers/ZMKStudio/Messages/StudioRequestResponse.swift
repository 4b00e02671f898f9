/// `zmk.studio.RequestResponse`: the answer to one request.
package struct StudioRequestResponse: ProtobufMessage, Equatable {
    /// The answer (the `subsystem` oneof).
    package enum Payload: Equatable, Sendable {
        /// Field 2: a generic outcome, usually an error such as `UNLOCK_REQUIRED`.
        case meta(StudioMetaResponse)
        /// Field 3.
        case core(StudioCoreResponse)
        /// Field 4.
        case behaviors(StudioBehaviorsResponse)
        /// Field 5.
        case keymap(StudioKeymapResponse)
        /// A subsystem this code does not know (its field number).
        case unrecognized(field: Int)
    }

    /// Field 1: the id of the request this answers.
    package var requestID: UInt32
    /// The answer.
    package var payload: Payload

    /// Creates a response.
    package init(requestID: UInt32, payload: Payload) {
        self.requestID = requestID
        self.payload = payload
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(requestID, field: 1)
        switch payload {
        case .meta(let response): writer.writeMessage(response, field: 2)
        case .core(let response): writer.writeMessage(response, field: 3)
        case .behaviors(let response): writer.writeMessage(response, field: 4)
        case .keymap(let response): writer.writeMessage(response, field: 5)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when no subsystem answer is present.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        requestID = 0
        var decoded: Payload?
        var unknownField: Int?
        while let field = try reader.nextField() {
            switch field {
            case 1: requestID = try reader.readUInt32()
            case 2: decoded = .meta(try reader.readMessage())
            case 3: decoded = .core(try reader.readMessage())
            case 4: decoded = .behaviors(try reader.readMessage())
            case 5: decoded = .keymap(try reader.readMessage())
            default: unknownField = unknownField ?? field
            }
        }
        if let decoded {
            payload = decoded
        } else if let unknownField {
            payload = .unrecognized(field: unknownField)
        } else {
            throw .missingField(message: "zmk.studio.RequestResponse", field: "subsystem")
        }
    }
}
