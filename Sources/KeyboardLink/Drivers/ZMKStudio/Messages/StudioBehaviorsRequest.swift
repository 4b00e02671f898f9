/// `zmk.behaviors.Request`.
package enum StudioBehaviorsRequest: ProtobufMessage, Equatable {
    /// Field 1: the local ids of every behaviour the firmware has (allowed while locked).
    case listAllBehaviors
    /// Field 2: one behaviour's display name and parameter metadata.
    case getBehaviorDetails(behaviorID: UInt32)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .listAllBehaviors:
            writer.writeBool(true, field: 1, emitDefault: true)
        case .getBehaviorDetails(let id):
            writer.writeMessage(BehaviorIDMessage(behaviorID: id), field: 2)
        }
    }

    /// - Throws: ProtobufError.missingField when no known request is present.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioBehaviorsRequest?
        while let field = try reader.nextField() {
            switch field {
            case 1:
                _ = try reader.readBool()
                decoded = .listAllBehaviors
            case 2:
                let message: BehaviorIDMessage = try reader.readMessage()
                decoded = .getBehaviorDetails(behaviorID: message.behaviorID)
            default: break
            }
        }
        guard let decoded else { throw .missingField(message: "zmk.behaviors.Request", field: "request_type") }
        self = decoded
    }

    /// `zmk.behaviors.GetBehaviorDetailsRequest { 1 behavior_id: uint32 }`.
    private struct BehaviorIDMessage: ProtobufMessage {
        var behaviorID: UInt32

        init(behaviorID: UInt32) {
            self.behaviorID = behaviorID
        }

        func encode(to writer: inout ProtobufWriter) {
            writer.writeUInt32(behaviorID, field: 1)
        }

        init(from reader: inout ProtobufReader) throws(ProtobufError) {
            behaviorID = 0
            while let field = try reader.nextField() {
                if field == 1 { behaviorID = try reader.readUInt32() }
            }
        }
    }
}
