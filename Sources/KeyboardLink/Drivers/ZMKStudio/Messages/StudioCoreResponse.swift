/// `zmk.core.Response`.
package enum StudioCoreResponse: ProtobufMessage, Equatable {
    /// Field 1: the answer to `getDeviceInfo`.
    case deviceInfo(StudioDeviceInfo)
    /// Field 2: the answer to `getLockState`.
    case lockState(StudioLockState)
    /// Field 4: whether `resetSettings` succeeded.
    case resetSettings(Bool)
    /// A member this code does not know (its field number).
    case unrecognized(field: Int)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .deviceInfo(let info): writer.writeMessage(info, field: 1)
        case .lockState(let state): writer.writeEnum(state, field: 2, emitDefault: true)
        case .resetSettings(let done): writer.writeBool(done, field: 4, emitDefault: true)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when the response is empty.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        self = try reader.readOneOf(
            message: "zmk.core.Response", oneof: "response_type", unrecognized: { .unrecognized(field: $0) }
        ) {
            reader, field throws(ProtobufError) in
            switch field {
            case 1: .deviceInfo(try reader.readMessage())
            case 2: .lockState(try reader.readEnum())
            case 4: .resetSettings(try reader.readBool())
            default: nil
            }
        }
    }
}
