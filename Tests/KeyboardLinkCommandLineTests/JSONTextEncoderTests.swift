import KeyboardLinkSupport
import Testing

@testable import KeyboardLinkCommandLine

/// The one encoder of `--json`: every leaf type, optionals written as `null`, nested containers, key order, and
/// what a container written out of order gets (an error, never wrong text).
@Suite("JSONTextEncoder")
struct JSONTextEncoderTests {
    /// The encoder's text of `value`.
    func text(_ value: some Encodable) throws -> String {
        String(decoding: try JSONTextEncoder().encode(value), as: UTF8.self)
    }

    struct Leaves: Encodable {
        var text = "Aula F87"
        var flag = true
        var int = -3
        var int8: Int8 = -8
        var int16: Int16 = -16
        var int32: Int32 = -32
        var int64: Int64 = .min
        var uint: UInt = 7
        var uint8: UInt8 = 8
        var uint16: UInt16 = 16
        var uint32: UInt32 = 4_000_000_000
        var uint64: UInt64 = .max
        var double = 0.5
        var float: Float = 0.25
        var raw = JSONValue.array([.integer(1), .null])
    }

    @Test("each leaf type becomes its JSON value, in declaration order; a UInt64 past Int64 becomes a number")
    func leaves() throws {
        #expect(
            try text(Leaves())
                == JSONValue.object([
                    ("text", .string("Aula F87")), ("flag", .bool(true)), ("int", .integer(-3)),
                    ("int8", .integer(-8)), ("int16", .integer(-16)), ("int32", .integer(-32)),
                    ("int64", .integer(.min)), ("uint", .integer(7)), ("uint8", .integer(8)),
                    ("uint16", .integer(16)), ("uint32", .integer(4_000_000_000)),
                    ("uint64", .number(Double(UInt64.max))), ("double", .number(0.5)), ("float", .number(0.25)),
                    ("raw", .array([.integer(1), .null])),
                ]).rendered())
        #expect(try text(Leaves()).contains(#""int64":-9223372036854775808,"#))
        #expect(try text([0, 9, 10, -10, 1234567890]) == "[0,9,10,-10,1234567890]")
    }

    @Test("strings are escaped: quotes, controls, and the invisible characters a device's name may carry")
    func escaping() throws {
        #expect(try text("a\"b\\c\n\u{7}") == #""a\"b\\c\n\u0007""#)
        #expect(try text("x\u{202E}y") == #""x\u202ey""#)
        #expect(try text(["na\u{200B}me": 1]) == #"{"na\u200bme":1}"#)
    }

    @Test("every ASCII byte and some escaped characters, at every place in a word: the same text as escaping by hand")
    func escapingAtEveryOffset() throws {
        func byHand(_ text: String) -> String {
            var bytes: [UInt8] = []
            JSONStringEscaping.appendEscaped(text, to: &bytes, escapingSlashes: false, escapingInvisibles: true)
            return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
        }
        let odd =
            (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + ["é", "\u{80}", "\u{9F}", "\u{200B}", "\u{202E}"]
        for character in odd {
            for offset in 0..<17 {
                let text =
                    String(repeating: "k", count: offset) + character + String(repeating: "y", count: 16 - offset)
                #expect(try self.text(text) == byHand(text), "\(Array(character.utf8)) at \(offset)")
                let key = try self.text([text: 1])
                #expect(key == "{" + byHand(text) + ":1}", "key \(Array(character.utf8)) at \(offset)")
            }
        }
    }

    @Test("keys that differ only past their first eight bytes, or only in length, are not taken for one key")
    func keysThatShareAWord() throws {
        struct Keys: Encodable {
            enum CodingKeys: String, CodingKey { case a = "abcdefgh", b = "abcdefgh1", c = "abcdefgh2", d = "abcdefg" }
            var a = 1, b = 2, c = 3, d = 4
        }
        #expect(try text(Keys()) == #"{"abcdefgh":1,"abcdefgh1":2,"abcdefgh2":3,"abcdefg":4}"#)
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
        #expect(
            try text([keyboard])
                == #"[{"address":"00:AA:01:02:00:02","battery":[{"part":"left","level":81},{"part":"right","level":null}],"firmware":{"model":"K75"},"health":null}]"#
        )
        let wrapped: String?? = .some("x")
        #expect(try text(wrapped) == #""x""#)
        #expect(try text(Int?.none) == "null")
        #expect(try text([Int?.none, 1]) == "[null,1]")
    }

    /// Writes through nested containers the way a hand-written `encode(to:)` may: a nested object, then the
    /// parent goes on; a nested array left empty; a value that encodes nothing; the same container asked twice.
    struct HandWritten: Encodable {
        enum Keys: String, CodingKey { case first, nested, list, empty, nothing, last }
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .first)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encode("in", forKey: .first)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(true)
            var inner = list.nestedContainer(keyedBy: Keys.self)
            try inner.encode(2, forKey: .last)
            try list.encodeNil()
            _ = container.nestedUnkeyedContainer(forKey: .empty)
            try container.encode(Nothing(), forKey: .nothing)
            var again = encoder.container(keyedBy: Keys.self)
            try again.encode("end", forKey: .last)
        }
    }

    @Test("nested containers close when their parent goes on; a value that writes nothing is null")
    func nestedContainers() throws {
        #expect(
            try text(HandWritten())
                == #"{"first":1,"nested":{"first":"in"},"list":[true,{"last":2},null],"empty":[],"nothing":null,"last":"end"}"#
        )
    }

    struct TwiceKeyed: Encodable {
        enum Keys: String, CodingKey { case name }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("a", forKey: .name)
            try container.encode("b", forKey: .name)
        }
    }

    struct LateWrite: Encodable {
        enum Keys: String, CodingKey { case outer, inner, after }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .outer)
            try container.encode(1, forKey: .after)
            // `nested` was closed when its parent wrote `after`.
            try nested.encode(2, forKey: .inner)
        }
    }

    struct TwoValues: Encodable {
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(1)
            try single.encode(2)
        }
    }

    struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }

    @Test("a key written twice, a write to a closed container, two values in one place, nothing: errors")
    func misuse() throws {
        #expect(throws: EncodingError.self) { try text(TwiceKeyed()) }
        #expect(throws: EncodingError.self) { try text(LateWrite()) }
        #expect(throws: EncodingError.self) { try text(TwoValues()) }
        #expect(throws: EncodingError.self) { try text(Nothing()) }
        #expect(throws: EncodingError.self) { try text(["x": TwoValues()]) }
    }

    /// Throws an error naming the coding path its encoder reports, and remembers what its containers report.
    struct PathProbe: Encodable {
        struct Reached: Error { let path: [String] }
        func encode(to encoder: any Encoder) throws {
            throw Reached(path: encoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue })
        }
    }

    struct Outer: Encodable {
        var name = "x"
        var parts: [[String: PathProbe]] = [["ok": PathProbe()]]
        var after = 1
    }

    func path(_ value: some Encodable) -> [String]? {
        do {
            _ = try JSONTextEncoder().encode(value)
            return nil
        } catch let reached as PathProbe.Reached {
            return reached.path
        } catch {
            return nil
        }
    }

    @Test("the coding path a value sees names the keys and item indexes around it; a misuse's error names its key")
    func codingPaths() throws {
        #expect(path(Outer()) == ["parts", "0", "ok"])
        #expect(path([Outer(), Outer()]) == ["0", "parts", "0", "ok"])
        #expect(path(PathProbe()) == [])
        do {
            _ = try text(["outer": TwiceKeyed()])
            Issue.record("a key written twice was accepted")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["outer", "name"])
            #expect(context.debugDescription.contains("written twice"))
        }
    }

    @Test("text longer than the writer's first buffer, and many items, come out whole")
    func longText() throws {
        let long = String(repeating: "abcdefgh", count: 1_500)  // 12,000 bytes, past the 4,096 the buffer starts with
        #expect(
            try text([long, "\u{1}" + long]) == JSONValue.array([.string(long), .string("\u{1}" + long)]).rendered())
        let many = (0..<2_000).map { Battery(part: "part \($0)", level: UInt8($0 % 256)) }
        var output: [UInt8] = []
        try JSONTextEncoder().appendArray(many, to: &output, flushingAt: 1 << 30) { _ in }
        let expected = JSONValue.array(
            many.map { .object([("part", .string($0.part)), ("level", .integer(Int64($0.level ?? 0)))]) })
        #expect(String(decoding: output, as: UTF8.self) == expected.rendered())
    }

    @Test("a failed encoding leaves the buffer as it was")
    func failedAppendLeavesBuffer() throws {
        var buffer = Array("[1,".utf8)
        #expect(throws: EncodingError.self) { try JSONTextEncoder().append([TwoValues()], to: &buffer) }
        #expect(String(decoding: buffer, as: UTF8.self) == "[1,")
        try JSONTextEncoder().append([2], to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "[1,[2]")
    }

    @Test(
        "an array encoded item by item with one writer: each item starts afresh, flushes come whole, a bad item stops it"
    )
    func arrayWithOneWriter() throws {
        let items = [
            Battery(part: "left", level: 1), Battery(part: "right", level: nil), Battery(part: "main", level: 3),
        ]
        var flushed: [UInt8] = []
        var buffer: [UInt8] = []
        try JSONTextEncoder().appendArray(items, to: &buffer, flushingAt: 10) { full in
            flushed += full
            full.removeAll()
        }
        // The same keys in every item are no duplicates: each item's keys are its own.
        #expect(
            String(decoding: flushed + buffer, as: UTF8.self)
                == #"[{"part":"left","level":1},{"part":"right","level":null},{"part":"main","level":3}]"#)
        // A bad item stops the array; the text ends before it.
        var partial: [UInt8] = []
        #expect(throws: EncodingError.self) {
            try JSONTextEncoder().appendArray([AnyItem.good, .good, .bad, .good], to: &partial, flushingAt: 1 << 20) {
                _ in
            }
        }
        #expect(String(decoding: partial, as: UTF8.self) == "[1,1,")
    }

    enum AnyItem: Encodable {
        case good, bad
        func encode(to encoder: any Encoder) throws {
            switch self {
            case .good: try 1.encode(to: encoder)
            case .bad: try TwoValues().encode(to: encoder)
            }
        }
    }
}
