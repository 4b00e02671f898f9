/// `zmk.keymap.SetLayerBindingRequest`: put `binding` at `keyPosition` of the layer with id `layerID`.
package struct StudioSetLayerBindingRequest: ProtobufMessage, Equatable {
    /// Field 1: the layer's id (from `StudioLayer.id`, not its index).
    package var layerID: UInt32
    /// Field 2: the key position, an index into the layer's bindings.
    package var keyPosition: Int32
    /// Field 3: the new binding.
    package var binding: StudioBehaviorBinding

    /// Creates a request.
    package init(layerID: UInt32, keyPosition: Int32, binding: StudioBehaviorBinding) {
        self.layerID = layerID
        self.keyPosition = keyPosition
        self.binding = binding
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(layerID, field: 1)
        writer.writeInt32(keyPosition, field: 2)
        writer.writeMessage(binding, field: 3)
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        layerID = 0
        keyPosition = 0
        binding = StudioBehaviorBinding(behaviorID: 0, param1: 0, param2: 0)
        while let field = try reader.nextField() {
            switch field {
            case 1: layerID = try reader.readUInt32()
            case 2: keyPosition = try reader.readInt32()
            case 3: binding = try reader.readMessage()
            default: break
            }
        }
    }
}
