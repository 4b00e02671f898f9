/// `zmk.keymap.AddLayerResponse { oneof result { 1 ok: AddLayerResponseDetails { 1 index: uint32; 2 layer: Layer };
/// 2 err: AddLayerErrorCode } }`.
package enum StudioAddLayerResult: ProtobufMessage, Equatable {
    /// Field 1: the layer was added at `index` (the end of the layer order).
    case ok(index: UInt32, layer: StudioLayer)
    /// Field 2: no layer was added.
    case failed(StudioAddLayerError)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .ok(let index, let layer): writer.writeMessage(Details(index: index, layer: layer), field: 1)
        case .failed(let error): writer.writeEnum(error, field: 2, emitDefault: true)
        }
    }

    /// - Throws: ProtobufError.missingField when neither member is present.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioAddLayerResult?
        while let field = try reader.nextField() {
            switch field {
            case 1:
                let details: Details = try reader.readMessage()
                decoded = .ok(index: details.index, layer: details.layer)
            case 2: decoded = .failed(try reader.readEnum())
            default: break
            }
        }
        guard let decoded else { throw .missingField(message: "zmk.keymap.AddLayerResponse", field: "result") }
        self = decoded
    }

    /// `zmk.keymap.AddLayerResponseDetails`.
    private struct Details: ProtobufMessage {
        var index: UInt32
        var layer: StudioLayer

        init(index: UInt32, layer: StudioLayer) {
            self.index = index
            self.layer = layer
        }

        func encode(to writer: inout ProtobufWriter) {
            writer.writeUInt32(index, field: 1)
            writer.writeMessage(layer, field: 2)
        }

        init(from reader: inout ProtobufReader) throws(ProtobufError) {
            index = 0
            layer = StudioLayer(id: 0, name: "", bindings: [])
            while let field = try reader.nextField() {
                switch field {
                case 1: index = try reader.readUInt32()
                case 2: layer = try reader.readMessage()
                default: break
                }
            }
        }
    }
}
