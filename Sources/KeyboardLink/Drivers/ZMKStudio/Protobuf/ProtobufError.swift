/// Why protobuf bytes could not be decoded. Every case names the byte offset or field involved.
package enum ProtobufError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ends inside a value: `needed` bytes were required at `offset`, only `available` remain.
    case truncated(offset: Int, needed: Int, available: Int)
    /// A varint at `offset` runs past ten bytes (or its tenth byte carries more than one bit).
    case varintTooLong(offset: Int)
    /// A tag at `offset` carries wire type 6 or 7, which do not exist.
    case invalidWireType(UInt8, offset: Int)
    /// A proto2 group (wire types 3 and 4) at `offset`; proto3 peers never send one.
    case unsupportedGroup(field: Int, offset: Int)
    /// A tag at `offset` carries field number 0 or one above 2^29 - 1.
    case invalidFieldNumber(UInt64, offset: Int)
    /// A length prefix at `offset` announces `length` bytes but only `remaining` are left in the enclosing message.
    case lengthExceedsInput(offset: Int, length: UInt64, remaining: Int)
    /// Messages are nested deeper than `limit`.
    case nestingTooDeep(limit: Int)
    /// Field `field` arrived with wire type `actual` where this message declares `expected`.
    case wrongWireType(field: Int, expected: ProtobufWireType, actual: ProtobufWireType)
    /// The string field `field` is not valid UTF-8.
    case invalidUTF8(field: Int)
    /// A message that must carry one of its fields carries none of them.
    case missingField(message: String, field: String)
    /// A value was read before `nextField()` produced a field to read: a bug in the message's decoder.
    case noCurrentField

    package var description: String {
        let advice = "the peer sent a corrupt or incompatible message; check its firmware version and retry"
        switch self {
        case let .truncated(offset, needed, available):
            return "protobuf input ends early: \(needed) bytes needed at offset \(offset), \(available) left; "
                + "the message was cut short (a lost chunk?), request it again"
        case let .varintTooLong(offset):
            return "protobuf varint at offset \(offset) is longer than 10 bytes or overflows 64 bits; \(advice)"
        case let .invalidWireType(type, offset):
            return "protobuf tag at offset \(offset) has wire type \(type), which does not exist; \(advice)"
        case let .unsupportedGroup(field, offset):
            return "protobuf field \(field) at offset \(offset) is a proto2 group, which proto3 never uses; \(advice)"
        case let .invalidFieldNumber(number, offset):
            return "protobuf tag at offset \(offset) has field number \(number), outside 1...536870911; \(advice)"
        case let .lengthExceedsInput(offset, length, remaining):
            return "protobuf length at offset \(offset) announces \(length) bytes but only \(remaining) remain; "
                + "the message was cut short or is corrupt, request it again"
        case let .nestingTooDeep(limit):
            return "protobuf messages nest deeper than \(limit) levels; \(advice)"
        case let .wrongWireType(field, expected, actual):
            return "protobuf field \(field) arrived as \(actual), expected \(expected); \(advice)"
        case let .invalidUTF8(field):
            return "protobuf string field \(field) is not valid UTF-8; \(advice)"
        case let .missingField(message, field):
            return "protobuf message \(message) carries no \(field); \(advice)"
        case .noCurrentField:
            return "a protobuf value was read before nextField() returned a field (a decoder bug); report it"
        }
    }
}
