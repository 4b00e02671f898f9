/// Two `uint32` fields 1 and 2 of a layer request: `zmk.keymap.MoveLayerRequest { 1 start_index; 2 dest_index }`,
/// `RestoreLayerRequest { 1 layer_id; 2 at_index }`.
package struct StudioLayerIndexPair: ProtobufMessage, Equatable {
    /// Field 1: the layer's index (move) or id (restore).
    package var first: UInt32
    /// Field 2: the index it goes to.
    package var second: UInt32

    /// Creates the pair.
    package init(_ first: UInt32, _ second: UInt32) {
        self.first = first
        self.second = second
    }

    package func encode(to writer: inout ProtobufWriter) {
        writer.writeUInt32(first, field: 1)
        writer.writeUInt32(second, field: 2)
    }

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        first = 0
        second = 0
        while let field = try reader.nextField() {
            switch field {
            case 1: first = try reader.readUInt32()
            case 2: second = try reader.readUInt32()
            default: break
            }
        }
    }
}
