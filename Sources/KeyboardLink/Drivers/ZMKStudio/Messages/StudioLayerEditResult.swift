/// The answer of a ZMK Studio layer request that is `oneof result { Success ok = 1; ErrorCode err = 2; }`:
/// `MoveLayerResponse` and `SetActivePhysicalLayoutResponse` (ok: the keymap), `RemoveLayerResponse` (ok: an empty message), `RestoreLayerResponse`
/// (ok: the layer).
package enum StudioLayerEditResult<Success: ProtobufMessage & Equatable>: ProtobufMessage, Equatable {
    /// Field 1: done.
    case ok(Success)
    /// Field 2: refused.
    case failed(StudioLayerErrorCode)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .ok(let success): writer.writeMessage(success, field: 1)
        case .failed(let error): writer.writeEnum(error, field: 2, emitDefault: true)
        }
    }

    /// - Throws: ProtobufError.missingField when neither member is present.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioLayerEditResult?
        while let field = try reader.nextField() {
            switch field {
            case 1: decoded = .ok(try reader.readMessage())
            case 2: decoded = .failed(try reader.readEnum())
            default: break
            }
        }
        guard let decoded else { throw .missingField(message: "zmk.keymap layer response", field: "result") }
        self = decoded
    }
}

/// An empty message (`zmk.keymap.RemoveLayerOk`).
package struct StudioEmptyMessage: ProtobufMessage, Equatable {
    /// Creates it.
    package init() {}

    package func encode(to writer: inout ProtobufWriter) {}

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        while try reader.nextField() != nil {}
    }
}
