/// `zmk.keymap.Response` (the members kblink uses).
package enum StudioKeymapResponse: ProtobufMessage, Equatable {
    /// Field 1: the answer to `getKeymap`.
    case keymap(StudioKeymap)
    /// Field 2: the outcome of `setLayerBinding`.
    case setLayerBinding(StudioSetLayerBindingResult)
    /// Field 3: whether staged changes exist.
    case unsavedChanges(Bool)
    /// Field 4: the outcome of `saveChanges`.
    case saveChanges(StudioSaveChangesResult)
    /// Field 5: whether `discardChanges` succeeded.
    case discardChanges(Bool)
    /// Field 6: the answer to `getPhysicalLayouts`.
    case physicalLayouts(StudioPhysicalLayouts)
    /// Field 7: the outcome of `setActivePhysicalLayout` (`SetActivePhysicalLayoutResponse`): the keymap in the
    /// new layout's key positions, or an error (ZMK answers every failure, a bad index too, with `GENERIC`).
    case setActivePhysicalLayout(StudioLayerEditResult<StudioKeymap>)
    /// Field 8: the outcome of `moveLayer`: the keymap after the move, or (ZMK answers only `GENERIC`) an error.
    case moveLayer(StudioLayerEditResult<StudioKeymap>)
    /// Field 9: the outcome of `addLayer`.
    case addLayer(StudioAddLayerResult)
    /// Field 10: the outcome of `removeLayer`.
    case removeLayer(StudioLayerEditResult<StudioEmptyMessage>)
    /// Field 11: the outcome of `restoreLayer`: the layer brought back.
    case restoreLayer(StudioLayerEditResult<StudioLayer>)
    /// Field 12: the outcome of `setLayerProps` (an enum: 0 OK).
    case setLayerProps(StudioLayerErrorCode)
    /// A member this code does not know (its field number).
    case unrecognized(field: Int)

    package func encode(to writer: inout ProtobufWriter) {
        switch self {
        case .keymap(let keymap): writer.writeMessage(keymap, field: 1)
        case .setLayerBinding(let result): writer.writeEnum(result, field: 2, emitDefault: true)
        case .unsavedChanges(let flag): writer.writeBool(flag, field: 3, emitDefault: true)
        case .saveChanges(let result): writer.writeMessage(result, field: 4)
        case .discardChanges(let flag): writer.writeBool(flag, field: 5, emitDefault: true)
        case .physicalLayouts(let layouts): writer.writeMessage(layouts, field: 6)
        case .setActivePhysicalLayout(let result): writer.writeMessage(result, field: 7)
        case .addLayer(let result): writer.writeMessage(result, field: 9)
        case .moveLayer(let result): writer.writeMessage(result, field: 8)
        case .removeLayer(let result): writer.writeMessage(result, field: 10)
        case .restoreLayer(let result): writer.writeMessage(result, field: 11)
        case .setLayerProps(let result): writer.writeEnum(result, field: 12, emitDefault: true)
        case .unrecognized: break
        }
    }

    /// Decodes the response. `save_changes` was a plain `bool` in ZMK firmware of 2024 and is a
    /// `SaveChangesResponse` message since; both are accepted.
    /// - Throws: ProtobufError.missingField when the response is empty.
    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        self = try reader.readOneOf(
            message: "zmk.keymap.Response", oneof: "response_type", unrecognized: { .unrecognized(field: $0) }
        ) {
            reader, field throws(ProtobufError) in
            switch field {
            case 1: .keymap(try reader.readMessage())
            case 2: .setLayerBinding(try reader.readEnum())
            case 3: .unsavedChanges(try reader.readBool())
            case 4 where reader.currentWireType == .varint:
                .saveChanges(try reader.readBool() ? .ok : .failed(.generic))
            case 4: .saveChanges(try reader.readMessage())
            case 5: .discardChanges(try reader.readBool())
            case 6: .physicalLayouts(try reader.readMessage())
            case 7: .setActivePhysicalLayout(try reader.readMessage())
            case 8: .moveLayer(try reader.readMessage())
            case 9: .addLayer(try reader.readMessage())
            case 10: .removeLayer(try reader.readMessage())
            case 11: .restoreLayer(try reader.readMessage())
            case 12: .setLayerProps(try reader.readEnum())
            default: nil
            }
        }
    }
}
