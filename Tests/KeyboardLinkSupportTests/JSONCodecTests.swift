import FoundationEssentials
import Testing

@testable import KeyboardLinkSupport

/// kblink's own JSON reader and writer (`JSONCodec`): the same text as Foundation's coders wrote, strict parsing,
/// and `DecodingError`s with coding paths that `JSONCodec.describe` turns into short messages.
@Suite struct JSONCodecTests {
    struct Sample: Codable, Equatable {
        struct Key: Codable, Equatable {
            var name: String
            var x: Double
            var w: Double?
            var row: Int
        }

        var id: String
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        var byName: [String: Int]
        var numbers: [Double]
        var small: [UInt8]
        var big: Int64
        var flag: Bool
        var missing: String?
        var text: String
        var keys: [Key]
        var nested: [[Int]]
    }

    static let sample = Sample(
        id: "my-board", byName: ["b": 1, "B": 2, "a10": 3, "a9": 4, "_x": 5, "é": 6, "Z": 7],
        numbers: [1, 3.75, 1e20, 1e-7, 0.1, -0.0, 1.2345678901234568e20, Double.leastNonzeroMagnitude, -2.5],
        small: [0, 255],
        big: Int64.min, flag: true, missing: nil,
        text: "a/b\"\\\u{7f}\u{1}\u{1f}\n\r\t\u{8}\u{c}\u{2028}é😀",
        keys: [Sample.Key(name: "ESC", x: 0, w: nil, row: 0), Sample.Key(name: "SPACE", x: 3.75, w: 6.25, row: 5)],
        nested: [[], [1, -2]])

    static let formattings: [(JSONEncoder.OutputFormatting, JSONNodeWriter.Options)] = [
        ([.prettyPrinted, .sortedKeys], [.prettyPrinted, .sortedKeys]),
        (
            [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
            [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        ),
        ([.sortedKeys], [.sortedKeys]),
    ]

    @Test("the text is Foundation's JSONEncoder's, byte for byte", arguments: 0..<3)
    func sameTextAsFoundation(formatting: Int) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = Self.formattings[formatting].0
        let foundation = String(decoding: try encoder.encode(Self.sample), as: UTF8.self)
        let ours = String(
            decoding: try JSONCodec.encode(Self.sample, options: Self.formattings[formatting].1), as: UTF8.self)
        #expect(ours == foundation)
    }

    @Test func roundTrips() throws {
        let text = try JSONCodec.encode(Self.sample, options: [.prettyPrinted, .sortedKeys])
        #expect(try JSONCodec.decode(Sample.self, from: text) == Self.sample)
    }

    @Test func readsWhatFoundationWrote() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        #expect(try JSONCodec.decode(Sample.self, from: Array(try encoder.encode(Self.sample))) == Self.sample)
    }

    @Test func escapesAndWhitespace() throws {
        let text = " [\"\\ud83d\\ude00\\u00e9\\n\\/\\\"\\\\\\b\\f\\r\\t\", \"\"] \r\n"
        #expect(try JSONCodec.decode([String].self, from: Array(text.utf8)) == ["😀é\n/\"\\\u{8}\u{c}\r\t", ""])
    }

    @Test(arguments: [
        ("[1.0, 1e2, -0, 7]", [1, 100, 0, 7]),
        ("[1,]", [1]),
    ])
    func integers(text: String, expected: [Int]) throws {
        #expect(try JSONCodec.decode([Int].self, from: Array(text.utf8)) == expected)
    }

    @Test func firstOfRepeatedKeysCounts() throws {
        #expect(try JSONCodec.decode([String: Int].self, from: Array(#"{"a": 1, "a": 2,}"#.utf8)) == ["a": 1])
    }

    @Test(arguments: [
        ("", "the text is empty, expected a JSON value at line 1, column 1"),
        ("{ not json", "unexpected 'n', expected a key at line 1, column 3"),
        ("[01]", "a number has a leading zero at line 1, column 2"),
        ("[1] x", "unexpected 'x' after the value at line 1, column 5"),
        ("[1,\n 2 3]", "unexpected '3', expected ',' or ']' at line 2, column 4"),
        (#"["\ud800"]"#, "a \\u escape holds an unpaired surrogate at line 1, column 9"),
        ("[\"a\u{1}\"]", "a string holds the control character byte 0x01; write it as an escape at line 1, column 4"),
        (#"["\q"]"#, "unknown escape \\'q' at line 1, column 4"),
        ("[tru]", "unexpected 't', expected a value at line 1, column 2"),
        ("[1.]", "unexpected ']', expected a digit after '.' at line 1, column 4"),
        ("[-]", "unexpected ']', expected a digit at line 1, column 3"),
        ("{\"a\" 1}", "unexpected '1', expected ':' after the key at line 1, column 6"),
        ("[\"abc", "the text ends inside a string at line 1, column 6"),
    ])
    func syntaxErrors(text: String, expected: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONCodec.decode([Int].self, from: Array(text.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.isEmpty)
        #expect((context.underlyingError as? JSONSyntaxError)?.description == expected)
    }

    @Test func invalidUTF8IsRefused() throws {
        let bytes: [UInt8] = [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D]
        let error = try #require(throws: DecodingError.self) { try JSONCodec.decode([String].self, from: bytes) }
        #expect(JSONCodec.describe(error).contains("a string is not valid UTF-8"))
    }

    @Test func nestingIsLimited() throws {
        let deepest = JSONParser.maximumDepth
        let accepted = String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)
        #expect(throws: Never.self) { try JSONParser.parse(Array(accepted.utf8)) }
        let refused = "[" + accepted + "]"
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(refused.utf8)) }
        #expect(error.reason == "nested more than \(deepest) deep")
        #expect(error.column == deepest + 1)
    }

    @Test(arguments: [
        (#"{"id": "x"}"#, "the document lacks 'keys'"),
        (#"{"id": "x", "keys": [{"name": "A", "x": "1", "row": 0}]}"#, "keys[0].x should be a number"),
        (#"{"id": "x", "keys": [{"name": "A", "x": 1, "row": null}]}"#, "keys[0].row should be a number, not null"),
        (#"{"id": "x", "keys": {}}"#, "keys should be a list"),
        (#"{"id": "x", "keys": [3]}"#, "keys[0] should be an object"),
        (#"{"id": 5, "keys": []}"#, "id should be a string"),
        (
            #"{"id": "x", "keys": [{"name": "A", "x": 1, "row": 1.5}]}"#,
            "keys[0].row: The number 1.5 does not fit in Int."
        ),
        (#"[300]"#, "the document should be an object"),
    ])
    func decodingErrorsNameTheField(text: String, expected: String) throws {
        struct Key: Decodable {
            var name: String
            var x: Double
            var row: Int
        }
        struct File: Decodable {
            var id: String
            var keys: [Key]
        }
        let error = try #require(throws: DecodingError.self) { try JSONCodec.decode(File.self, from: Array(text.utf8)) }
        #expect(JSONCodec.describe(error) == expected)
    }

    @Test func integerOverflowIsAnError() throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONCodec.decode([UInt8].self, from: Array("[255, 256]".utf8))
        }
        #expect(JSONCodec.describe(error) == "[1]: The number 256 does not fit in UInt8.")
    }

    @Test func infinityCannotBeWritten() {
        #expect(throws: EncodingError.self) { try JSONCodec.encode([Double.infinity], options: []) }
    }
}
