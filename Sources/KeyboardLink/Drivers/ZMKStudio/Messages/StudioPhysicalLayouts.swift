/// `zmk.keymap.PhysicalLayouts`: the layouts the keyboard knows and which one is active.
package struct StudioPhysicalLayouts: ProtobufMessage, Equatable {
    /// Field 1: the index of the active layout in `layouts`.
    package var activeLayoutIndex: UInt32
    /// Field 2: the layouts.
    package var layouts: [StudioPhysicalLayout]

    /// Creates a layout list.
    package init(activeLayoutIndex: UInt32, layouts: [StudioPhysicalLayout]) {
        self.activeLayoutIndex = activeLayoutIndex
        self.layouts = layouts
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(activeLayoutIndex, field: 1)
        for layout in layouts {
            writer.writeMessage(layout, field: 2)
        }
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        activeLayoutIndex = 0
        layouts = []
        while let field = try reader.nextField() {
            switch field {
            case 1: activeLayoutIndex = try reader.readUInt32()
            case 2: layouts.append(try reader.readMessage())
            default: break
            }
        }
    }
}
