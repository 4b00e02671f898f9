/// `zmk.keymap.SetLayerPropsRequest { 1 layer_id: uint32; 2 name: string }`: a layer's name (ZMK ignores an empty
/// one and answers OK).
package struct StudioSetLayerPropsRequest: ProtobufMessage, Equatable {
    /// Field 1: the layer's id.
    package var layerID: UInt32
    /// Field 2: its new name.
    package var name: String

    /// Creates the request.
    package init(layerID: UInt32, name: String) {
        self.layerID = layerID
        self.name = name
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(layerID, field: 1)
        writer.writeString(name, field: 2)
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        layerID = 0
        name = ""
        while let field = try reader.nextField() {
            switch field {
            case 1: layerID = try reader.readUInt32()
            case 2: name = try reader.readString()
            default: break
            }
        }
    }
}
