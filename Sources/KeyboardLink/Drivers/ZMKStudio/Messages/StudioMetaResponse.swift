/// `zmk.meta.Response`: an answer that is not specific to a subsystem.
package enum StudioMetaResponse: ProtobufMessage, Equatable {
    /// Field 1: the call succeeded and has nothing to return.
    case noResponse
    /// Field 2: the call failed.
    case simpleError(StudioMetaError)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .noResponse: writer.writeBool(true, field: 1, emitDefault: true)
        case .simpleError(let error): writer.writeEnum(error, field: 2, emitDefault: true)
        }
    }

    /// - Throws: ProtobufError.missingField when neither member is present.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioMetaResponse?
        while let field = try reader.nextField() {
            switch field {
            case 1:
                _ = try reader.readBool()
                decoded = .noResponse
            case 2: decoded = .simpleError(try reader.readEnum())
            default: break
            }
        }
        guard let decoded else { throw .missingField(message: "zmk.meta.Response", field: "response_type") }
        self = decoded
    }
}
