/// A message with a hand-written proto3 encoding.
///
/// Decoders loop over `ProtobufReader.nextField()` and switch on the field number; fields they do not know are
/// skipped by the reader, so newer peers that add fields stay readable.
package protocol ProtobufMessage: Sendable {
    /// Appends the message's fields (not a length prefix) to `writer`.
    func encode(to writer: inout ProtobufWriter)
    /// Decodes the message from the fields `reader` has left.
    /// - Throws: ProtobufError when the bytes are truncated, malformed or nested too deep.
    init(from reader: inout ProtobufReader) throws(ProtobufError)
}

extension ProtobufMessage {
    /// The message's proto3 encoding.
    package func serializedBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        encode(to: &writer)
        return writer.bytes
    }

    /// Decodes a message from its proto3 encoding.
    /// - Parameter maximumDepth: how deeply messages may nest before decoding gives up.
    /// - Throws: ProtobufError when the bytes are truncated, malformed or nested too deep.
    package init(serializedBytes bytes: [UInt8], maximumDepth: Int = ProtobufReader.defaultMaximumDepth)
        throws(ProtobufError)
    {
        var reader = ProtobufReader(bytes, maximumDepth: maximumDepth)
        try self.init(from: &reader)
    }
}
