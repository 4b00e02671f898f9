/// `zmk.keymap.Keymap`: every layer and how many more the keyboard could add.
package struct StudioKeymap: ProtobufMessage, Equatable {
    /// Field 1: the layers in order.
    package var layers: [StudioLayer]
    /// Field 2: how many layers could still be added.
    package var availableLayers: UInt32
    /// Field 3: the longest layer name the firmware stores.
    package var maxLayerNameLength: UInt32

    /// Creates a keymap.
    package init(layers: [StudioLayer], availableLayers: UInt32 = 0, maxLayerNameLength: UInt32 = 0) {
        self.layers = layers
        self.availableLayers = availableLayers
        self.maxLayerNameLength = maxLayerNameLength
    }

    package func encode(to writer: inout ProtobufWriter) {
        for layer in layers {
            writer.writeMessage(layer, field: 1)
        }
        writer.writeUInt32(availableLayers, field: 2)
        writer.writeUInt32(maxLayerNameLength, field: 3)
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        layers = []
        availableLayers = 0
        maxLayerNameLength = 0
        while let field = try reader.nextField() {
            switch field {
            case 1: layers.append(try reader.readMessage())
            case 2: availableLayers = try reader.readUInt32()
            case 3: maxLayerNameLength = try reader.readUInt32()
            default: break
            }
        }
    }
}
