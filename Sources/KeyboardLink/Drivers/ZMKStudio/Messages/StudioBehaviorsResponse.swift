/// `zmk.behaviors.Response`.
package enum StudioBehaviorsResponse: ProtobufMessage, Equatable {
    /// Field 1: `ListAllBehaviorsResponse { 1 behaviors: repeated uint32 }`, the behaviours' local ids.
    case behaviorIDs([UInt32])
    /// Field 2: the answer to `getBehaviorDetails`.
    case behaviorDetails(StudioBehaviorDetails)
    /// A member this code does not know (its field number).
    case unrecognized(field: Int)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .behaviorIDs(let ids): writer.writeMessage(IDList(ids: ids), field: 1)
        case .behaviorDetails(let details): writer.writeMessage(details, field: 2)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when the response is empty.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        self = try reader.readOneOf(
            message: "zmk.behaviors.Response", oneof: "response_type", unrecognized: { .unrecognized(field: $0) }
        ) {
            reader, field throws(ProtobufError) in
            switch field {
            case 1: .behaviorIDs((try reader.readMessage() as IDList).ids)
            case 2: .behaviorDetails(try reader.readMessage())
            default: nil
            }
        }
    }

    /// `ListAllBehaviorsResponse`. ZMK writes the ids unpacked (one tag each, from a nanopb callback), proto3
    /// encoders write them packed; the reader accepts both, and this encoder writes them unpacked like ZMK.
    private struct IDList: ProtobufMessage {
        var ids: [UInt32]

        init(ids: [UInt32]) {
            self.ids = ids
        }

        func encode(to writer: inout ProtobufWriter) {
            for id in ids {
                writer.writeUInt32(id, field: 1, emitDefault: true)
            }
        }

        init(from reader: inout ProtobufReader) throws(ProtobufError) {
            ids = []
            while let field = try reader.nextField() {
                if field == 1 { try reader.readRepeatedUInt32s(into: &ids) }
            }
        }
    }
}
