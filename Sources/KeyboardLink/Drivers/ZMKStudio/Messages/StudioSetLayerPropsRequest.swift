/// `zmk.keymap.SetLayerPropsRequest { 1 layer_id: uint32; 2 name: string }`: a layer's name (ZMK ignores an empty
/// one and answers OK).
public struct StudioSetLayerPropsRequest: ProtobufMessage, Equatable {
    /// Field 1: the layer's id.
    public var layerID: UInt32
    /// Field 2: its new name.
    public var name: String

    /// Creates the request.
    public init(layerID: UInt32, name: String) {
        self.layerID = layerID
        self.name = name
    }

    public func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(layerID, field: 1)
        writer.writeString(name, field: 2)
    }

    public init(from reader: inout ProtobufReader) throws(ProtobufError) {
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
