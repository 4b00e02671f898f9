/// `zmk.core.Response`.
public enum StudioCoreResponse: ProtobufMessage, Equatable {
    /// Field 1: the answer to `getDeviceInfo`.
    case deviceInfo(StudioDeviceInfo)
    /// Field 2: the answer to `getLockState`.
    case lockState(StudioLockState)
    /// Field 4: whether `resetSettings` succeeded.
    case resetSettings(Bool)
    /// A member this code does not know (its field number).
    case unrecognized(field: Int)

    public func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .deviceInfo(let info): writer.writeMessage(info, field: 1)
        case .lockState(let state): writer.writeEnum(state, field: 2, emitDefault: true)
        case .resetSettings(let done): writer.writeBool(done, field: 4, emitDefault: true)
        case .unrecognized: break
        }
    }

    /// - Throws: ProtobufError.missingField when the response is empty.
    public init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioCoreResponse?
        var unknownField: Int?
        while let field = try reader.nextField() {
            switch field {
            case 1: decoded = .deviceInfo(try reader.readMessage())
            case 2: decoded = .lockState(try reader.readEnum())
            case 4: decoded = .resetSettings(try reader.readBool())
            default: unknownField = unknownField ?? field
            }
        }
        if let decoded {
            self = decoded
        } else if let unknownField {
            self = .unrecognized(field: unknownField)
        } else {
            throw .missingField(message: "zmk.core.Response", field: "response_type")
        }
    }
}
