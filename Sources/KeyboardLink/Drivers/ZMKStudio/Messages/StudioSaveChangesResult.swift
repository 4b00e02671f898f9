/// `zmk.keymap.SaveChangesResponse { oneof result { 1 ok: bool; 2 err: SaveChangesErrorCode } }`.
package enum StudioSaveChangesResult: ProtobufMessage, Equatable {
    /// Field 1 true: the staged changes are in flash.
    case ok
    /// Field 2 (or field 1 false, read as `.generic`): saving failed.
    case failed(StudioSaveChangesError)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .ok: writer.writeBool(true, field: 1, emitDefault: true)
        case .failed(let error): writer.writeEnum(error, field: 2, emitDefault: true)
        }
    }

    /// - Throws: ProtobufError.missingField when neither member is present.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioSaveChangesResult?
        while let field = try reader.nextField() {
            switch field {
            case 1: decoded = try reader.readBool() ? .ok : .failed(.generic)
            case 2: decoded = .failed(try reader.readEnum())
            default: break
            }
        }
        guard let decoded else { throw .missingField(message: "zmk.keymap.SaveChangesResponse", field: "result") }
        self = decoded
    }
}
