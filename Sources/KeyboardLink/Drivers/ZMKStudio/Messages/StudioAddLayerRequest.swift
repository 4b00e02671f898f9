/// `zmk.keymap.AddLayerRequest`: an empty message; the firmware appends the layer after the last one.
package struct StudioAddLayerRequest: ProtobufMessage, Equatable {
    /// Creates the request.
    package init() {}

    package func encode(to writer: inout ProtobufWriter) {}

    package init(from reader: inout ProtobufReader) throws(ProtobufError) {
        // Unknown fields are skipped by the reader.
        while try reader.nextField() != nil {}
    }
}
