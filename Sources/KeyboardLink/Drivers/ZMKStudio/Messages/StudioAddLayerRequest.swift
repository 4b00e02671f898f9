/// `zmk.keymap.AddLayerRequest`: an empty message; the firmware appends the layer after the last one.
public struct StudioAddLayerRequest: ProtobufMessage, Equatable {
    /// Creates the request.
    public init() {}

    public func encode(to writer: inout ProtobufWriter) {}

    public init(from reader: inout ProtobufReader) throws(ProtobufError) {
        // Unknown fields are skipped by the reader.
        while try reader.nextField() != nil {}
    }
}
