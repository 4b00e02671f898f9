/// `zmk.keymap.Request`.
package enum StudioKeymapRequest: ProtobufMessage, Equatable {
    /// Field 1: every layer with its bindings.
    case getKeymap
    /// Field 2: stage one binding change (kept until `saveChanges` or `discardChanges`).
    case setLayerBinding(StudioSetLayerBindingRequest)
    /// Field 3: whether staged changes exist.
    case checkUnsavedChanges
    /// Field 4: write staged changes to flash.
    case saveChanges
    /// Field 5: drop staged changes.
    case discardChanges
    /// Field 6: the physical layouts (key positions and sizes).
    case getPhysicalLayouts
    /// Field 7: choose the active physical layout by index.
    case setActivePhysicalLayout(UInt32)
    /// Field 8: move the layer at `start_index` to `dest_index` (`MoveLayerRequest`).
    case moveLayer(from: UInt32, to: UInt32)
    /// Field 9: append a layer (staged like a binding change).
    case addLayer
    /// Field 10: remove the layer at an index (`RemoveLayerRequest { 1 layer_index }`).
    case removeLayer(index: UInt32)
    /// Field 11: bring a removed layer back, by id, at an index (`RestoreLayerRequest`).
    case restoreLayer(id: UInt32, at: UInt32)
    /// Field 12: a layer's name (`SetLayerPropsRequest`).
    case setLayerProps(StudioSetLayerPropsRequest)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .getKeymap: writer.writeBool(true, field: 1, emitDefault: true)
        case .setLayerBinding(let request): writer.writeMessage(request, field: 2)
        case .checkUnsavedChanges: writer.writeBool(true, field: 3, emitDefault: true)
        case .saveChanges: writer.writeBool(true, field: 4, emitDefault: true)
        case .discardChanges: writer.writeBool(true, field: 5, emitDefault: true)
        case .getPhysicalLayouts: writer.writeBool(true, field: 6, emitDefault: true)
        case .setActivePhysicalLayout(let index): writer.writeUInt32(index, field: 7, emitDefault: true)
        case .addLayer: writer.writeMessage(StudioAddLayerRequest(), field: 9)
        case .moveLayer(let from, let to): writer.writeMessage(StudioLayerIndexPair(from, to), field: 8)
        case .removeLayer(let index): writer.writeMessage(StudioLayerIndexPair(index, 0), field: 10)
        case .restoreLayer(let id, let at): writer.writeMessage(StudioLayerIndexPair(id, at), field: 11)
        case .setLayerProps(let request): writer.writeMessage(request, field: 12)
        }
    }

    /// - Throws: ProtobufError.missingField when no known request is present.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioKeymapRequest?
        while let field = try reader.nextField() {
            switch field {
            case 2: decoded = .setLayerBinding(try reader.readMessage())
            case 7: decoded = .setActivePhysicalLayout(try reader.readUInt32())
            case 9:
                let _: StudioAddLayerRequest = try reader.readMessage()
                decoded = .addLayer
            case 8:
                let pair: StudioLayerIndexPair = try reader.readMessage()
                decoded = .moveLayer(from: pair.first, to: pair.second)
            case 10:
                let pair: StudioLayerIndexPair = try reader.readMessage()
                decoded = .removeLayer(index: pair.first)
            case 11:
                let pair: StudioLayerIndexPair = try reader.readMessage()
                decoded = .restoreLayer(id: pair.first, at: pair.second)
            case 12: decoded = .setLayerProps(try reader.readMessage())
            case 1, 3, 4, 5, 6:
                _ = try reader.readBool()
                decoded =
                    switch field {
                    case 1: .getKeymap
                    case 3: .checkUnsavedChanges
                    case 4: .saveChanges
                    case 5: .discardChanges
                    default: .getPhysicalLayouts
                    }
            default: break
            }
        }
        guard let decoded else { throw .missingField(message: "zmk.keymap.Request", field: "request_type") }
        self = decoded
    }
}
