/// A proto3 enum: open, so values this code does not know survive decoding and re-encoding.
package protocol ProtobufEnum: Hashable, Sendable {
    /// Maps any wire value, known or not, to a case.
    init(protobufValue: Int32)
    /// The value written on the wire.
    var protobufValue: Int32 { get }
}
