/// `zmk.keymap.PhysicalLayout`: a named arrangement of keys, one entry per key position.
package struct StudioPhysicalLayout: ProtobufMessage, Equatable {
    /// Field 1: the display name.
    package var name: String
    /// Field 2: each key's geometry, indexed by key position.
    package var keys: [StudioKeyPhysicalAttributes]

    /// Creates a layout.
    package init(name: String, keys: [StudioKeyPhysicalAttributes]) {
        self.name = name
        self.keys = keys
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeString(name, field: 1)
        for key in keys {
            writer.writeMessage(key, field: 2)
        }
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        name = ""
        keys = []
        while let field = try reader.nextField() {
            switch field {
            case 1: name = try reader.readString()
            case 2: keys.append(try reader.readMessage())
            default: break
            }
        }
    }
}
