import Testing

@testable import KeyboardLinkCommandLine

/// The one encoder of `--json`: every leaf type, optionals written as `null`, nested containers, key order.
@Suite("JSONValueEncoder")
struct JSONValueEncoderTests {
    struct Leaves: Encodable {
        var text = "Aula F87"
        var flag = true
        var int = -3
        var int8: Int8 = -8
        var int16: Int16 = -16
        var int32: Int32 = -32
        var int64: Int64 = -64
        var uint: UInt = 7
        var uint8: UInt8 = 8
        var uint16: UInt16 = 16
        var uint32: UInt32 = 32
        var uint64: UInt64 = .max
        var double = 0.5
        var float: Float = 0.25
        var raw = JSONValue.array([.integer(1), .null])
    }

    @Test("each leaf type becomes its JSON value, in declaration order; a UInt64 past Int64 becomes a number")
    func leaves() throws {
        let encoded = try JSONValueEncoder().encode(Leaves())
        #expect(
            encoded
                == .object([
                    ("text", .string("Aula F87")), ("flag", .bool(true)), ("int", .integer(-3)),
                    ("int8", .integer(-8)), ("int16", .integer(-16)), ("int32", .integer(-32)),
                    ("int64", .integer(-64)), ("uint", .integer(7)), ("uint8", .integer(8)),
                    ("uint16", .integer(16)), ("uint32", .integer(32)), ("uint64", .number(Double(UInt64.max))),
                    ("double", .number(0.5)), ("float", .number(0.25)), ("raw", .array([.integer(1), .null])),
                ]))
    }

    struct Battery: Encodable {
        var part: String
        var level: UInt8?
    }

    struct Keyboard: Encodable {
        var address: String
        var battery: [Battery]
        var firmware: [String: String]
        var health: String?
    }

    @Test("optionals: a nil is null and the key stays; a value is written as the value itself")
    func optionalsAndNesting() throws {
        let keyboard = Keyboard(
            address: "00:AA:01:02:00:02", battery: [.init(part: "left", level: 81), .init(part: "right", level: nil)],
            firmware: ["model": "K75"], health: nil)
        let encoded = try JSONValueEncoder().encode([keyboard])
        #expect(
            encoded
                == .array([
                    .object([
                        ("address", .string("00:AA:01:02:00:02")),
                        (
                            "battery",
                            .array([
                                .object([("part", .string("left")), ("level", .integer(81))]),
                                .object([("part", .string("right")), ("level", .null)]),
                            ])
                        ),
                        ("firmware", .object([("model", .string("K75"))])),
                        ("health", .null),
                    ])
                ]))
        let wrapped: String?? = .some("x")
        #expect(try JSONValueEncoder().encode(wrapped) == .string("x"))
        #expect(try JSONValueEncoder().encode(Int?.none) == .null)
    }
}
