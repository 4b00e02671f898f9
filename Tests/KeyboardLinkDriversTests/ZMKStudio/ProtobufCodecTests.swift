import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkDrivers

/// A message nested in itself through field 1, to test the depth cap.
private struct Nest: ProtobufMessage {
    var child: [Nest] = []

    init() {}

    func encode(to writer: inout ProtobufWriter) {
        for nested in child { writer.writeMessage(nested, field: 1) }
    }

    init(from reader: inout ProtobufReader) throws(ProtobufError) {
        while let field = try reader.nextField() {
            if field == 1 { child = [try reader.readMessage()] }
        }
    }
}

/// One field of every scalar kind, for the random round trip.
private enum AnyField: Equatable {
    case uint64(UInt64), int32(Int32), sint32(Int32), sint64(Int64), fixed32(UInt32), fixed64(UInt64)
    case bytes([UInt8]), string(String), packed([UInt64])
}

@Suite("Protobuf wire codec")
struct ProtobufCodecTests {
    private func bytes(_ build: (inout ProtobufWriter) -> Void) -> [UInt8] {
        var writer = ProtobufWriter()
        build(&writer)
        return writer.bytes
    }

    // MARK: Known vectors (from the protobuf encoding guide, or computed by hand)

    static let varintVectors: [(UInt64, [UInt8])] = [
        (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (150, [0x96, 0x01]),
        (300, [0xAC, 0x02]), (16_384, [0x80, 0x80, 0x01]),
        (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    @Test("Varints are base 128, least significant group first", arguments: varintVectors)
    func varints(value: UInt64, expected: [UInt8]) throws {
        #expect(bytes { $0.writeRawVarint(value) } == expected)
        var reader = ProtobufReader(expected)
        #expect(try reader.readRawVarint() == value)
        #expect(reader.isAtEnd)
    }

    static let zigzagVectors: [(Int32, UInt32)] = [
        (0, 0), (-1, 1), (1, 2), (-2, 3), (2_147_483_647, 4_294_967_294), (-2_147_483_648, 4_294_967_295),
    ]

    @Test("Zigzag maps 0, -1, 1, -2 to 0, 1, 2, 3", arguments: zigzagVectors)
    func zigzag32(value: Int32, expected: UInt32) {
        #expect(ProtobufWriter.zigzag(value) == expected)
        #expect(ProtobufReader.unzigzag(expected) == value)
    }

    @Test("64-bit zigzag at the extremes")
    func zigzag64() {
        #expect(ProtobufWriter.zigzag(Int64(-1)) == 1)
        #expect(ProtobufWriter.zigzag(Int64.min) == UInt64.max)
        #expect(ProtobufWriter.zigzag(Int64.max) == UInt64.max - 1)
        #expect(ProtobufReader.unzigzag(UInt64.max) == Int64.min)
    }

    @Test("Field encodings match hand-computed bytes")
    func fieldVectors() {
        #expect(bytes { $0.writeUInt32(150, field: 1) } == [0x08, 0x96, 0x01])
        #expect(
            bytes { $0.writeString("testing", field: 2) } == [0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6E, 0x67])
        #expect(bytes { $0.writeSInt32(-1, field: 1) } == [0x08, 0x01])
        #expect(bytes { $0.writeSInt64(-3, field: 3) } == [0x18, 0x05])
        #expect(
            bytes { $0.writeInt32(-1, field: 1) } == [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(bytes { $0.writeFixed32(1, field: 5) } == [0x2D, 0x01, 0x00, 0x00, 0x00])
        #expect(
            bytes { $0.writeFixed64(0x0102_0304_0506_0708, field: 2) } == [
                0x11, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
            ])
        #expect(bytes { $0.writeSFixed32(-2, field: 1) } == [0x0D, 0xFE, 0xFF, 0xFF, 0xFF])
        #expect(
            bytes { $0.writePackedUInt32s([3, 270, 86_942], field: 4) } == [
                0x22, 0x06, 0x03, 0x8E, 0x02, 0x9E, 0xA7, 0x05,
            ])
        #expect(bytes { $0.writeBool(true, field: 16) } == [0x80, 0x01, 0x01])
    }

    @Test("Default values are omitted unless a oneof member asks for them")
    func implicitPresence() {
        #expect(bytes { $0.writeUInt32(0, field: 1) } == [])
        #expect(bytes { $0.writeString("", field: 2) } == [])
        #expect(bytes { $0.writeBool(false, field: 3) } == [])
        #expect(bytes { $0.writePackedUInt32s([], field: 4) } == [])
        #expect(bytes { $0.writeBool(false, field: 3, emitDefault: true) } == [0x18, 0x00])
        #expect(bytes { $0.writeBytes([UInt8](), field: 2, emitDefault: true) } == [0x12, 0x00])
    }

    @Test("Hand-written bytes decode to the values they encode")
    func readVectors() throws {
        var reader = ProtobufReader([
            0x08, 0x96, 0x01, 0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6E, 0x67, 0x18, 0x05,
            0x25, 0xFE, 0xFF, 0xFF, 0xFF, 0x29, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
            0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
        ])
        #expect(try reader.nextField() == 1)
        #expect(try reader.readUInt32() == 150)
        #expect(try reader.nextField() == 2)
        #expect(try reader.readString() == "testing")
        #expect(try reader.nextField() == 3)
        #expect(try reader.readSInt32() == -3)
        #expect(try reader.nextField() == 4)
        #expect(try reader.readSFixed32() == -2)
        #expect(try reader.nextField() == 5)
        #expect(try reader.readFixed64() == 0x0102_0304_0506_0708)
        #expect(try reader.nextField() == 6)
        #expect(try reader.readInt32() == -1)
        #expect(try reader.nextField() == nil)
    }

    @Test("Repeated varints decode from both packed and unpacked encodings")
    func packedAndUnpacked() throws {
        var values: [UInt32] = []
        var reader = ProtobufReader([0x22, 0x06, 0x03, 0x8E, 0x02, 0x9E, 0xA7, 0x05, 0x20, 0x07, 0x20, 0x08])
        while let field = try reader.nextField() {
            #expect(field == 4)
            try reader.readRepeatedUInt32s(into: &values)
        }
        #expect(values == [3, 270, 86_942, 7, 8])
    }

    // MARK: Unknown fields and errors

    @Test("Unknown fields of all four wire types are skipped")
    func unknownFieldsSkipped() throws {
        let input: [UInt8] = [
            0x48, 0x96, 0x01,  // field 9, varint 150
            0x08, 0x08,  // behavior_id: sint32 4
            0x51, 1, 2, 3, 4, 5, 6, 7, 8,  // field 10, fixed64
            0x5A, 0x03, 0xAB, 0xAC, 0xAD,  // field 11, length-delimited
            0x10, 0xAC, 0x02,  // param1: 300
            0x65, 1, 2, 3, 4,  // field 12, fixed32
            0x18, 0x07,  // param2: 7
        ]
        let binding = try StudioBehaviorBinding(serializedBytes: input)
        #expect(binding == StudioBehaviorBinding(behaviorID: 4, param1: 300, param2: 7))
    }

    @Test("skipField skips the current value explicitly")
    func explicitSkip() throws {
        var reader = ProtobufReader([0x5A, 0x02, 0x01, 0x02, 0x08, 0x05])
        #expect(try reader.nextField() == 11)
        try reader.skipField()
        #expect(try reader.nextField() == 1)
        #expect(try reader.readUInt32() == 5)
    }

    /// Field 9 is unknown to StudioBehaviorBinding, so these exercise the skipping path; field 1 is its sint32.
    static let malformedVectors: [([UInt8], ProtobufError)] = [
        ([0x08], .truncated(offset: 1, needed: 1, available: 0)),
        ([0x08, 0x96], .truncated(offset: 1, needed: 2, available: 1)),
        ([0x4A, 0x05, 0x01, 0x02], .lengthExceedsInput(offset: 1, length: 5, remaining: 2)),
        ([0x4D, 0x01, 0x02], .truncated(offset: 1, needed: 4, available: 2)),
        ([0x49, 0x01], .truncated(offset: 1, needed: 8, available: 1)),
        ([0x0E, 0x00], .invalidWireType(6, offset: 0)),
        ([0x0F, 0x00], .invalidWireType(7, offset: 0)),
        ([0x00, 0x00], .invalidFieldNumber(0, offset: 0)),
        ([0x0B], .unsupportedGroup(field: 1, offset: 0)),
        ([0x0C], .unsupportedGroup(field: 1, offset: 0)),
        ([0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], .varintTooLong(offset: 1)),
        ([0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], .varintTooLong(offset: 1)),
        ([0x4A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], .lengthExceedsInput(offset: 1, length: 0xFFFF_FFFF, remaining: 0)),
        ([0x0A, 0x01, 0x08], .wrongWireType(field: 1, expected: .varint, actual: .lengthDelimited)),
    ]

    @Test("Malformed input is a thrown error naming the problem", arguments: malformedVectors)
    func malformed(input: [UInt8], expected: ProtobufError) {
        #expect(throws: expected) { try StudioBehaviorBinding(serializedBytes: input) }
    }

    @Test("A ten-byte varint whose last byte is 1 is UInt64.max, not an error")
    func tenByteVarint() throws {
        var reader = ProtobufReader([UInt8](repeating: 0xFF, count: 9) + [0x01])
        #expect(try reader.readRawVarint() == UInt64.max)
    }

    @Test("A string that is not UTF-8 is an error")
    func invalidUTF8() {
        #expect(throws: ProtobufError.invalidUTF8(field: 1)) {
            try StudioDeviceInfo(serializedBytes: [0x0A, 0x02, 0xC3, 0x28])
        }
    }

    @Test("Nesting deeper than the cap is an error, not a stack overflow")
    func nestingDepth() throws {
        var encoded: [UInt8] = []
        for _ in 0..<1_000 {
            var writer = ProtobufWriter()
            writer.writeBytes(encoded, field: 1, emitDefault: true)
            encoded = writer.bytes
        }
        #expect(throws: ProtobufError.nestingTooDeep(limit: 32)) { try Nest(serializedBytes: encoded) }
        #expect(throws: ProtobufError.nestingTooDeep(limit: 5)) {
            try Nest(serializedBytes: Array(encoded.suffix(20)), maximumDepth: 5)
        }
        var shallow = ProtobufReader(encoded)
        _ = try shallow.nextField()
        // Nine levels: within the cap, so it decodes.
        var nine: [UInt8] = []
        for _ in 0..<9 {
            var writer = ProtobufWriter()
            writer.writeBytes(nine, field: 1, emitDefault: true)
            nine = writer.bytes
        }
        var depth = 0
        var node = try Nest(serializedBytes: nine)
        while let next = node.child.first {
            depth += 1
            node = next
        }
        #expect(depth == 9)
    }

    @Test("Reading a value before nextField() is an error, not a crash")
    func readWithoutField() {
        var reader = ProtobufReader([0x08, 0x01])
        #expect(throws: ProtobufError.noCurrentField) { try reader.readUInt32() }
    }

    // MARK: Random round trips

    @Test("Random fields of every kind survive a round trip", arguments: [UInt64(1), 2, 3, 0xDEAD_BEEF])
    func randomRoundTrip(seed: UInt64) throws {
        var generator = SeededRandom(seed: seed)
        for _ in 0..<100 {
            let fields: [AnyField] = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                switch Int.random(in: 0..<9, using: &generator) {
                case 0: .uint64(generator.next() >> UInt64.random(in: 0...63, using: &generator))
                case 1: .int32(Int32.random(in: .min ... .max, using: &generator))
                case 2: .sint32(Int32.random(in: .min ... .max, using: &generator))
                case 3: .sint64(Int64.random(in: .min ... .max, using: &generator))
                case 4: .fixed32(UInt32.random(in: .min ... .max, using: &generator))
                case 5: .fixed64(generator.next())
                case 6:
                    .bytes(
                        (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                            UInt8.random(in: 0...255, using: &generator)
                        })
                case 7:
                    .string(
                        String(
                            (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                                "aé€😀".randomElement(using: &generator)!
                            }))
                default: .packed((0..<Int.random(in: 1...10, using: &generator)).map { _ in generator.next() >> 20 })
                }
            }
            var writer = ProtobufWriter()
            for (index, field) in fields.enumerated() {
                let number = index + 1
                switch field {
                case .uint64(let v): writer.writeUInt64(v, field: number, emitDefault: true)
                case .int32(let v): writer.writeInt32(v, field: number, emitDefault: true)
                case .sint32(let v): writer.writeSInt32(v, field: number, emitDefault: true)
                case .sint64(let v): writer.writeSInt64(v, field: number, emitDefault: true)
                case .fixed32(let v): writer.writeFixed32(v, field: number, emitDefault: true)
                case .fixed64(let v): writer.writeFixed64(v, field: number, emitDefault: true)
                case .bytes(let v): writer.writeBytes(v, field: number, emitDefault: true)
                case .string(let v): writer.writeString(v, field: number, emitDefault: true)
                case .packed(let v): writer.writePackedVarints(v, field: number)
                }
            }
            var reader = ProtobufReader(writer.bytes)
            var decoded: [AnyField] = []
            while let number = try reader.nextField() {
                #expect(number == decoded.count + 1)
                switch fields[number - 1] {
                case .uint64: decoded.append(.uint64(try reader.readUInt64()))
                case .int32: decoded.append(.int32(try reader.readInt32()))
                case .sint32: decoded.append(.sint32(try reader.readSInt32()))
                case .sint64: decoded.append(.sint64(try reader.readSInt64()))
                case .fixed32: decoded.append(.fixed32(try reader.readFixed32()))
                case .fixed64: decoded.append(.fixed64(try reader.readFixed64()))
                case .bytes: decoded.append(.bytes(try reader.readBytes()))
                case .string: decoded.append(.string(try reader.readString()))
                case .packed:
                    var values: [UInt64] = []
                    try reader.readRepeatedVarints(into: &values)
                    decoded.append(.packed(values))
                }
            }
            #expect(decoded == fields)
        }
    }

    @Test("Random bytes never crash the decoder: each input decodes or throws ProtobufError")
    func randomGarbage() {
        var generator = SeededRandom(seed: 0xF0_22)
        var thrown = 0
        for _ in 0..<5_000 {
            let input = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try StudioResponse(serializedBytes: input)
            } catch {
                thrown += 1
            }
        }
        // Almost all random inputs are malformed; the point is that none of them trapped.
        #expect(thrown > 4_000)
    }
}
