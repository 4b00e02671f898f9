/// `zmk.studio.Request`: one RPC call, tagged with an id the response echoes.
package struct StudioRequest: ProtobufMessage, Equatable {
    /// Which subsystem the call goes to (the `subsystem` oneof).
    package enum Subsystem: Equatable, Sendable {
        /// Field 3: `zmk.core.Request`.
        case core(StudioCoreRequest)
        /// Field 4: `zmk.behaviors.Request`.
        case behaviors(StudioBehaviorsRequest)
        /// Field 5: `zmk.keymap.Request`.
        case keymap(StudioKeymapRequest)
    }

    /// Field 1: echoed in the matching `StudioRequestResponse`.
    package var requestID: UInt32
    /// The call; nil only for a request decoded from a peer that set no subsystem.
    package var subsystem: Subsystem?

    /// Creates a request.
    package init(requestID: UInt32, subsystem: Subsystem?) {
        self.requestID = requestID
        self.subsystem = subsystem
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(requestID, field: 1)
        switch subsystem {
        case .core(let request): writer.writeMessage(request, field: 3)
        case .behaviors(let request): writer.writeMessage(request, field: 4)
        case .keymap(let request): writer.writeMessage(request, field: 5)
        case nil: break
        }
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        requestID = 0
        subsystem = nil
        while let field = try reader.nextField() {
            switch field {
            case 1: requestID = try reader.readUInt32()
            case 3: subsystem = .core(try reader.readMessage())
            case 4: subsystem = .behaviors(try reader.readMessage())
            case 5: subsystem = .keymap(try reader.readMessage())
            default: break
            }
        }
    }
}
