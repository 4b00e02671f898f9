/// `zmk.keymap.Request` (the members kblink uses; layer move/remove/restore/rename are not modelled).
public enum StudioKeymapRequest: ProtobufMessage, Equatable {
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
    /// Field 9: append a layer (staged like a binding change).
    case addLayer

    public func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .getKeymap: writer.writeBool(true, field: 1, emitDefault: true)
        case .setLayerBinding(let request): writer.writeMessage(request, field: 2)
        case .checkUnsavedChanges: writer.writeBool(true, field: 3, emitDefault: true)
        case .saveChanges: writer.writeBool(true, field: 4, emitDefault: true)
        case .discardChanges: writer.writeBool(true, field: 5, emitDefault: true)
        case .getPhysicalLayouts: writer.writeBool(true, field: 6, emitDefault: true)
        case .setActivePhysicalLayout(let index): writer.writeUInt32(index, field: 7, emitDefault: true)
        case .addLayer: writer.writeMessage(StudioAddLayerRequest(), field: 9)
        }
    }

    /// - Throws: ProtobufError.missingField when no known request is present.
    public init(from reader: inout ProtobufReader) throws(ProtobufError) {
        var decoded: StudioKeymapRequest?
        while let field = try reader.nextField() {
            switch field {
            case 2: decoded = .setLayerBinding(try reader.readMessage())
            case 7: decoded = .setActivePhysicalLayout(try reader.readUInt32())
            case 9:
                let _: StudioAddLayerRequest = try reader.readMessage()
                decoded = .addLayer
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
