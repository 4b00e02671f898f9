/// The wire type in the low three bits of a protobuf field tag: how the value that follows is laid out.
package enum ProtobufWireType: UInt8, Sendable, CustomStringConvertible {
    /// A base-128 varint (int32, int64, uint32, uint64, sint32, sint64, bool, enum).
    case varint = 0
    /// Eight little-endian bytes (fixed64, sfixed64, double).
    case fixed64 = 1
    /// A varint length, then that many bytes (string, bytes, messages, packed repeated fields).
    case lengthDelimited = 2
    /// Start of a proto2 group; proto3 never produces it.
    case startGroup = 3
    /// End of a proto2 group; proto3 never produces it.
    case endGroup = 4
    /// Four little-endian bytes (fixed32, sfixed32, float).
    case fixed32 = 5

    package var description: String {
        switch self {
        case .varint: "varint"
        case .fixed64: "fixed64"
        case .lengthDelimited: "length-delimited"
        case .startGroup: "start-group"
        case .endGroup: "end-group"
        case .fixed32: "fixed32"
        }
    }
}
