/// `zmk.keymap.Layer`: one layer's id, name and a binding per key position.
public struct StudioLayer: ProtobufMessage, Equatable {
    /// Field 1: the id used by `setLayerBinding` (stable when layers move).
    public var id: UInt32
    /// Field 2: the name, possibly empty.
    public var name: String
    /// Field 3: one binding per key position.
    public var bindings: [StudioBehaviorBinding]

    /// Creates a layer.
    public init(id: UInt32, name: String, bindings: [StudioBehaviorBinding]) {
        self.id = id
        self.name = name
        self.bindings = bindings
    }

    public func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(id, field: 1)
        writer.writeString(name, field: 2)
        for binding in bindings {
            writer.writeMessage(binding, field: 3)
        }
    }

    public init(from reader: inout ProtobufReader) throws(ProtobufError) {
        id = 0
        name = ""
        bindings = []
        while let field = try reader.nextField() {
            switch field {
            case 1: id = try reader.readUInt32()
            case 2: name = try reader.readString()
            case 3: bindings.append(try reader.readMessage())
            default: break
            }
        }
    }
}
