extension ProtobufReader {
    /// Reads a message that is one `oneof` (ZMK Studio's responses and notifications): `member` decodes a field it
    /// knows and returns nil for any other. As protobuf says, the last member read wins. A message that holds only
    /// members this code does not know becomes `unrecognized` with the first such field number, so that a newer
    /// firmware's answer is reported, not rejected.
    /// - Parameters:
    ///   - message: the message's protobuf name, for the error (`zmk.core.Response`).
    ///   - oneof: the name of its `oneof`, for the error (`response_type`).
    /// - Throws: what `member` throws, or `ProtobufError.missingField` when the message holds no field at all.
    mutating func readOneOf<Value>(
        message: String, oneof: String, unrecognized: (Int) -> Value,
        member: (inout ProtobufReader, Int) throws(ProtobufError) -> Value?
    ) throws(ProtobufError) -> Value {
        var decoded: Value?
        var unknownField: Int?
        while let field = try nextField() {
            if let value = try member(&self, field) {
                decoded = value
            } else {
                unknownField = unknownField ?? field
            }
        }
        if let decoded { return decoded }
        if let unknownField { return unrecognized(unknownField) }
        throw .missingField(message: message, field: oneof)
    }
}
