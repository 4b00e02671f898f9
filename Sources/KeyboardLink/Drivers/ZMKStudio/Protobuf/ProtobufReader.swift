/// Reads proto3 wire-format bytes field by field, checking every length against the bytes that remain.
///
/// Typical use inside `ProtobufMessage.init(from:)`:
/// ```swift
/// while let field = try reader.nextField() {
///     switch field {
///     case 1: id = try reader.readUInt32()
///     default: break  // nextField() skips what was not read
///     }
/// }
/// ```
/// Nested readers share the same storage (no copies) and carry their depth, which is capped.
package struct ProtobufReader: Sendable {
    /// How deeply messages may nest by default; ZMK Studio's deepest message nests five levels.
    package static let defaultMaximumDepth = 32

    private let storage: [UInt8]
    private var position: Int
    private let end: Int
    /// The nesting level of this reader: 0 for the outermost message.
    package let depth: Int
    /// The nesting level beyond which `readMessage` throws.
    package let maximumDepth: Int
    /// The field number and wire type of the field whose value has not been read yet.
    private var current: (field: Int, wireType: ProtobufWireType, consumed: Bool)?

    /// Creates a reader over a whole message.
    /// - Parameter maximumDepth: how deeply messages may nest before `readMessage` throws.
    package init(_ bytes: [UInt8], maximumDepth: Int = ProtobufReader.defaultMaximumDepth) {
        self.init(storage: bytes, start: bytes.startIndex, end: bytes.endIndex, depth: 0, maximumDepth: maximumDepth)
    }

    private init(storage: [UInt8], start: Int, end: Int, depth: Int, maximumDepth: Int) {
        self.storage = storage
        self.position = start
        self.end = end
        self.depth = depth
        self.maximumDepth = maximumDepth
    }

    /// Whether every byte of this message has been read.
    package var isAtEnd: Bool { position >= end }

    /// The offset of the next byte in the outermost input (for error messages).
    package var offset: Int { position }

    /// The wire type of the current field, if `nextField()` returned one.
    package var currentWireType: ProtobufWireType? { current?.wireType }

    // MARK: Fields

    /// Moves to the next field and returns its number, or nil at the end of the message.
    ///
    /// A previous field whose value was not read is skipped first, so decoders ignore unknown fields by
    /// simply not reading them.
    /// - Throws: ProtobufError for a malformed tag or a malformed skipped value.
    package mutating func nextField() throws(ProtobufError) -> Int? {
        if let current, !current.consumed {
            try skip(wireType: current.wireType, field: current.field)
        }
        current = nil
        guard position < end else { return nil }
        let tagOffset = position
        let tag = try readRawVarint()
        let fieldNumber = tag >> 3
        guard fieldNumber >= 1, fieldNumber <= UInt64(ProtobufWriter.maximumFieldNumber) else {
            throw .invalidFieldNumber(fieldNumber, offset: tagOffset)
        }
        let rawWireType = UInt8(truncatingIfNeeded: tag & 0x7)
        guard let wireType = ProtobufWireType(rawValue: rawWireType) else {
            throw .invalidWireType(rawWireType, offset: tagOffset)
        }
        if wireType == .startGroup || wireType == .endGroup {
            throw .unsupportedGroup(field: Int(fieldNumber), offset: tagOffset)
        }
        current = (Int(fieldNumber), wireType, false)
        return Int(fieldNumber)
    }

    /// Skips the current field's value (the reader would also skip it on the next `nextField()`).
    package mutating func skipField() throws(ProtobufError) {
        let field = try take(.varint, orAlso: [.fixed32, .fixed64, .lengthDelimited])
        try skip(wireType: field.wireType, field: field.field)
    }

    // MARK: Varint values

    /// Reads a `uint64` value.
    package mutating func readUInt64() throws(ProtobufError) -> UInt64 {
        _ = try take(.varint)
        return try readRawVarint()
    }

    /// Reads a `uint32` value; like other protobuf decoders it keeps the low 32 bits of a longer varint.
    package mutating func readUInt32() throws(ProtobufError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readUInt64())
    }

    /// Reads an `int64` value.
    package mutating func readInt64() throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try readUInt64())
    }

    /// Reads an `int32` value (negative values arrive sign-extended to ten bytes).
    package mutating func readInt32() throws(ProtobufError) -> Int32 {
        Int32(truncatingIfNeeded: try readUInt64())
    }

    /// Reads a `sint32` value (zigzag).
    package mutating func readSInt32() throws(ProtobufError) -> Int32 {
        Self.unzigzag(UInt32(truncatingIfNeeded: try readUInt64()))
    }

    /// Reads a `sint64` value (zigzag).
    package mutating func readSInt64() throws(ProtobufError) -> Int64 {
        Self.unzigzag(try readUInt64())
    }

    /// Reads a `bool` value; any non-zero varint is true.
    package mutating func readBool() throws(ProtobufError) -> Bool {
        try readUInt64() != 0
    }

    /// Reads an enum value; unknown numbers are kept by the enum type.
    package mutating func readEnum<E: ProtobufEnum>(_ type: E.Type = E.self) throws(ProtobufError) -> E {
        E(protobufValue: try readInt32())
    }

    // MARK: Fixed-width values

    /// Reads a `fixed32` value.
    package mutating func readFixed32() throws(ProtobufError) -> UInt32 {
        _ = try take(.fixed32)
        return try readRawFixed32()
    }

    /// Reads a `fixed64` value.
    package mutating func readFixed64() throws(ProtobufError) -> UInt64 {
        _ = try take(.fixed64)
        return try readRawFixed64()
    }

    /// Reads an `sfixed32` value.
    package mutating func readSFixed32() throws(ProtobufError) -> Int32 {
        Int32(bitPattern: try readFixed32())
    }

    /// Reads an `sfixed64` value.
    package mutating func readSFixed64() throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try readFixed64())
    }

    // MARK: Length-delimited values

    /// Reads a `bytes` value.
    package mutating func readBytes() throws(ProtobufError) -> [UInt8] {
        _ = try take(.lengthDelimited)
        let range = try readLengthDelimitedRange()
        return Array(storage[range])
    }

    /// Reads a `string` value, which must be valid UTF-8.
    package mutating func readString() throws(ProtobufError) -> String {
        let field = try take(.lengthDelimited)
        let range = try readLengthDelimitedRange()
        guard let text = String(validating: storage[range], as: UTF8.self) else {
            throw .invalidUTF8(field: field.field)
        }
        return text
    }

    /// Reads an embedded message one level deeper.
    /// - Throws: ProtobufError.nestingTooDeep beyond `maximumDepth`, or any error of the nested message.
    package mutating func readMessage<M: ProtobufMessage>(_ type: M.Type = M.self) throws(ProtobufError) -> M {
        _ = try take(.lengthDelimited)
        guard depth < maximumDepth else { throw .nestingTooDeep(limit: maximumDepth) }
        let range = try readLengthDelimitedRange()
        var nested = ProtobufReader(
            storage: storage, start: range.lowerBound, end: range.upperBound, depth: depth + 1,
            maximumDepth: maximumDepth)
        return try M(from: &nested)
    }

    /// Reads a repeated varint field into `values`, accepting both encodings proto3 allows: packed (one
    /// length-delimited run) and unpacked (one tag per value, as nanopb callbacks in ZMK write them).
    package mutating func readRepeatedVarints(into values: inout [UInt64]) throws(ProtobufError) {
        let field = try take(.varint, orAlso: [.lengthDelimited])
        if field.wireType == .varint {
            values.append(try readRawVarint())
            return
        }
        let range = try readLengthDelimitedRange()
        var packed = ProtobufReader(
            storage: storage, start: range.lowerBound, end: range.upperBound, depth: depth, maximumDepth: maximumDepth)
        while !packed.isAtEnd {
            values.append(try packed.readRawVarint())
        }
    }

    /// Reads a repeated `uint32` field (packed or not) into `values`.
    package mutating func readRepeatedUInt32s(into values: inout [UInt32]) throws(ProtobufError) {
        var wide: [UInt64] = []
        try readRepeatedVarints(into: &wide)
        values.append(contentsOf: wide.map { UInt32(truncatingIfNeeded: $0) })
    }

    // MARK: Raw decoding

    /// Reads a base-128 varint of at most ten bytes.
    /// - Throws: ProtobufError.truncated at the end of input, .varintTooLong past ten bytes or 64 bits.
    package mutating func readRawVarint() throws(ProtobufError) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else {
                throw .truncated(offset: start, needed: position - start + 1, available: end - start)
            }
            let byte = storage[position]
            position += 1
            if shift == 63 && byte > 1 {
                throw .varintTooLong(offset: start)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw .varintTooLong(offset: start) }
        }
    }

    private mutating func readRawFixed32() throws(ProtobufError) -> UInt32 {
        let range = try advance(by: 4)
        var value: UInt32 = 0
        for (index, byte) in storage[range].enumerated() {
            value |= UInt32(byte) << UInt32(index * 8)
        }
        return value
    }

    private mutating func readRawFixed64() throws(ProtobufError) -> UInt64 {
        let range = try advance(by: 8)
        var value: UInt64 = 0
        for (index, byte) in storage[range].enumerated() {
            value |= UInt64(byte) << UInt64(index * 8)
        }
        return value
    }

    private mutating func readLengthDelimitedRange() throws(ProtobufError) -> Range<Int> {
        let lengthOffset = position
        let length = try readRawVarint()
        let remaining = end - position
        guard length <= UInt64(remaining) else {
            throw .lengthExceedsInput(offset: lengthOffset, length: length, remaining: remaining)
        }
        return try advance(by: Int(length))
    }

    private mutating func advance(by count: Int) throws(ProtobufError) -> Range<Int> {
        guard end - position >= count else {
            throw .truncated(offset: position, needed: count, available: end - position)
        }
        let range = position..<(position + count)
        position += count
        return range
    }

    private mutating func skip(wireType: ProtobufWireType, field: Int) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readRawVarint()
        case .fixed64: _ = try advance(by: 8)
        case .fixed32: _ = try advance(by: 4)
        case .lengthDelimited: _ = try readLengthDelimitedRange()
        case .startGroup, .endGroup: throw .unsupportedGroup(field: field, offset: position)
        }
        current?.consumed = true
    }

    /// Marks the current field as consumed after checking its wire type.
    private mutating func take(
        _ expected: ProtobufWireType, orAlso alternatives: [ProtobufWireType] = []
    ) throws(ProtobufError) -> (field: Int, wireType: ProtobufWireType) {
        guard let field = current, !field.consumed else { throw .noCurrentField }
        guard field.wireType == expected || alternatives.contains(field.wireType) else {
            throw .wrongWireType(field: field.field, expected: expected, actual: field.wireType)
        }
        current?.consumed = true
        return (field.field, field.wireType)
    }

    // MARK: Zigzag

    /// Inverse of `ProtobufWriter.zigzag`: 0→0, 1→-1, 2→1, 3→-2.
    package static func unzigzag(_ value: UInt32) -> Int32 {
        Int32(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// Inverse of the 64-bit zigzag mapping.
    package static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
