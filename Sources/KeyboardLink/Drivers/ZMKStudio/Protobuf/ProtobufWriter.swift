/// Builds proto3 wire-format bytes field by field.
///
/// Scalar writers follow proto3's implicit presence: a zero, false or empty value is not written unless
/// `emitDefault` is true. Members of a `oneof` have explicit presence, so their encoders pass `emitDefault: true`.
/// Field numbers come from code, not from input, so an invalid one is a programming error.
package struct ProtobufWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    package init() {
        bytes = []
    }

    /// The largest field number protobuf allows (2^29 - 1).
    package static let maximumFieldNumber = 536_870_911

    // MARK: Raw encodings

    /// Appends `value` as a base-128 varint (1 to 10 bytes).
    package mutating func writeRawVarint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    /// Appends a field tag: `(field << 3) | wireType`.
    package mutating func writeTag(field: Int, wireType: ProtobufWireType) {
        precondition(field >= 1 && field <= Self.maximumFieldNumber, "protobuf field number \(field) out of range")
        writeRawVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// Appends four little-endian bytes.
    package mutating func writeRawFixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    /// Appends eight little-endian bytes.
    package mutating func writeRawFixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    // MARK: Varint fields

    /// Writes a `uint32` field.
    package mutating func writeUInt32(_ value: UInt32, field: Int, emitDefault: Bool = false) {
        writeUInt64(UInt64(value), field: field, emitDefault: emitDefault)
    }

    /// Writes a `uint64` field.
    package mutating func writeUInt64(_ value: UInt64, field: Int, emitDefault: Bool = false) {
        guard value != 0 || emitDefault else { return }
        writeTag(field: field, wireType: .varint)
        writeRawVarint(value)
    }

    /// Writes an `int32` field; negative values take ten bytes because protobuf sign-extends them to 64 bits.
    package mutating func writeInt32(_ value: Int32, field: Int, emitDefault: Bool = false) {
        writeInt64(Int64(value), field: field, emitDefault: emitDefault)
    }

    /// Writes an `int64` field.
    package mutating func writeInt64(_ value: Int64, field: Int, emitDefault: Bool = false) {
        writeUInt64(UInt64(bitPattern: value), field: field, emitDefault: emitDefault)
    }

    /// Writes a `sint32` field (zigzag: 0, -1, 1, -2 ... become 0, 1, 2, 3 ...).
    package mutating func writeSInt32(_ value: Int32, field: Int, emitDefault: Bool = false) {
        writeUInt64(UInt64(Self.zigzag(value)), field: field, emitDefault: emitDefault)
    }

    /// Writes a `sint64` field (zigzag).
    package mutating func writeSInt64(_ value: Int64, field: Int, emitDefault: Bool = false) {
        writeUInt64(Self.zigzag(value), field: field, emitDefault: emitDefault)
    }

    /// Writes a `bool` field.
    package mutating func writeBool(_ value: Bool, field: Int, emitDefault: Bool = false) {
        writeUInt64(value ? 1 : 0, field: field, emitDefault: emitDefault)
    }

    /// Writes an enum field (an `int32` on the wire).
    package mutating func writeEnum(_ value: some ProtobufEnum, field: Int, emitDefault: Bool = false) {
        writeInt32(value.protobufValue, field: field, emitDefault: emitDefault)
    }

    // MARK: Fixed-width fields

    /// Writes a `fixed32` field.
    package mutating func writeFixed32(_ value: UInt32, field: Int, emitDefault: Bool = false) {
        guard value != 0 || emitDefault else { return }
        writeTag(field: field, wireType: .fixed32)
        writeRawFixed32(value)
    }

    /// Writes a `fixed64` field.
    package mutating func writeFixed64(_ value: UInt64, field: Int, emitDefault: Bool = false) {
        guard value != 0 || emitDefault else { return }
        writeTag(field: field, wireType: .fixed64)
        writeRawFixed64(value)
    }

    /// Writes an `sfixed32` field.
    package mutating func writeSFixed32(_ value: Int32, field: Int, emitDefault: Bool = false) {
        writeFixed32(UInt32(bitPattern: value), field: field, emitDefault: emitDefault)
    }

    /// Writes an `sfixed64` field.
    package mutating func writeSFixed64(_ value: Int64, field: Int, emitDefault: Bool = false) {
        writeFixed64(UInt64(bitPattern: value), field: field, emitDefault: emitDefault)
    }

    // MARK: Length-delimited fields

    /// Writes a `bytes` field.
    package mutating func writeBytes(_ value: some Collection<UInt8>, field: Int, emitDefault: Bool = false) {
        guard !value.isEmpty || emitDefault else { return }
        writeTag(field: field, wireType: .lengthDelimited)
        writeRawVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// Writes a `string` field as UTF-8.
    package mutating func writeString(_ value: String, field: Int, emitDefault: Bool = false) {
        writeBytes(Array(value.utf8), field: field, emitDefault: emitDefault)
    }

    /// Writes an embedded message. Messages have explicit presence, so an empty one is still written.
    package mutating func writeMessage(_ message: some ProtobufMessage, field: Int) {
        var nested = ProtobufWriter()
        message.encode(to: &nested)
        writeBytes(nested.bytes, field: field, emitDefault: true)
    }

    /// Writes a packed repeated varint field (proto3's default for repeated scalars); nothing when empty.
    package mutating func writePackedVarints(_ values: some Collection<UInt64>, field: Int) {
        guard !values.isEmpty else { return }
        var nested = ProtobufWriter()
        for value in values {
            nested.writeRawVarint(value)
        }
        writeBytes(nested.bytes, field: field, emitDefault: true)
    }

    /// Writes a packed repeated `uint32` field; nothing when empty.
    package mutating func writePackedUInt32s(_ values: [UInt32], field: Int) {
        writePackedVarints(values.map { UInt64($0) }, field: field)
    }

    // MARK: Zigzag

    /// Maps a signed value to an unsigned one so that small magnitudes stay short: 0→0, -1→1, 1→2, -2→3.
    package static func zigzag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    /// Maps a signed 64-bit value to an unsigned one (zigzag).
    package static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
}
