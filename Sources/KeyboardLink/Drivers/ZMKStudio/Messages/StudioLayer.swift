/// `zmk.keymap.Layer`: one layer's id, name and a binding per key position.
package struct StudioLayer: ProtobufMessage, Equatable {
    /// Field 1: the id used by `setLayerBinding` (stable when layers move).
    package var id: UInt32
    /// Field 2: the name, possibly empty.
    package var name: String
    /// Field 3: one binding per key position.
    package var bindings: [StudioBehaviorBinding]

    /// Creates a layer.
    package init(id: UInt32, name: String, bindings: [StudioBehaviorBinding]) {
        self.id = id
        self.name = name
        self.bindings = bindings
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(id, field: 1)
        writer.writeString(name, field: 2)
        for binding in bindings {
            writer.writeMessage(binding, field: 3)
        }
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
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
