import KeyboardLinkKeymap

/// A JSON value that knows where it is in its file, so that a refusal can name the line and column of the value
/// it refuses. Reads RFC 8259 JSON, at most 64 levels deep.
indirect enum PositionedJSON {
    case null(Int)
    case bool(Bool, Int)
    /// The number's text.
    case number(String, Int)
    case string(String, Int)
    case array([PositionedJSON], Int)
    case object([(key: String, value: PositionedJSON)], Int)

    var offset: Int {
        switch self {
        case .null(let p), .bool(_, let p), .number(_, let p), .string(_, let p), .array(_, let p), .object(_, let p):
            return p
        }
    }

    /// The member of an object, the first when a key repeats.
    subscript(key: String) -> PositionedJSON? {
        guard case .object(let members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The line and column of a byte offset in a text.
    static func position(of offset: Int, in bytes: [UInt8]) -> SourcePosition {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }

    /// Parses a document.
    /// - Throws: `KeymapFileError` at the first syntax error.
    static func parse(_ bytes: [UInt8]) throws(KeymapFileError) -> PositionedJSON {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == parser.bytes.count else { throw parser.error("text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ reason: String) -> KeymapFileError {
            KeymapFileError(PositionedJSON.position(of: offset, in: bytes), reason)
        }

        mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0D, 0x0A: offset += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(KeymapFileError) -> PositionedJSON {
            guard depth < 64 else { throw error("nested more than 64 levels deep") }
            guard offset < bytes.count else { throw error("the file ends where a value should be") }
            let start = offset
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                offset += 1
                var members: [(key: String, value: PositionedJSON)] = []
                skipWhitespace()
                if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(members, start)
                }
                while true {
                    skipWhitespace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                        throw error("expected a quoted key")
                    }
                    let key = try string()
                    skipWhitespace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                        throw error("expected ':' after a key")
                    }
                    offset += 1
                    skipWhitespace()
                    members.append((key, try value(depth: depth + 1)))
                    skipWhitespace()
                    guard offset < bytes.count else { throw error("an object is not closed") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    guard bytes[offset] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                    offset += 1
                    return .object(members, start)
                }
            case UInt8(ascii: "["):
                offset += 1
                var elements: [PositionedJSON] = []
                skipWhitespace()
                if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(elements, start)
                }
                while true {
                    skipWhitespace()
                    elements.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard offset < bytes.count else { throw error("a list is not closed") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    guard bytes[offset] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                    offset += 1
                    return .array(elements, start)
                }
            case UInt8(ascii: "\""):
                return .string(try string(), start)
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true, start)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false, start)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null(start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let begin = offset
                offset += 1
                while offset < bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset])
                        || [
                            UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"),
                            UInt8(ascii: "-"),
                        ]
                        .contains(bytes[offset])
                {
                    offset += 1
                }
                let text = String(decoding: bytes[begin..<offset], as: UTF8.self)
                guard Double(text) != nil, offset - begin <= 64 else {
                    throw KeymapFileError(PositionedJSON.position(of: start, in: bytes), "a malformed number")
                }
                return .number(text, start)
            default:
                throw error("expected a value")
            }
        }

        mutating func literal(_ word: String) throws(KeymapFileError) {
            let expected = Array(word.utf8)
            guard offset + expected.count <= bytes.count, Array(bytes[offset..<offset + expected.count]) == expected
            else { throw error("expected a value") }
            offset += expected.count
        }

        mutating func string() throws(KeymapFileError) -> String {
            offset += 1
            var result: [UInt8] = []
            while true {
                guard offset < bytes.count else { throw error("a string is not closed") }
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    offset += 1
                    guard let text = String(validating: result, as: UTF8.self) else {
                        throw error("a string is not UTF-8")
                    }
                    return text
                }
                guard byte >= 0x20 else { throw error("a control character inside a string") }
                if byte == UInt8(ascii: "\\") {
                    offset += 1
                    guard offset < bytes.count else { throw error("a string is not closed") }
                    let escape = bytes[offset]
                    offset += 1
                    switch escape {
                    case UInt8(ascii: "\""): result.append(0x22)
                    case UInt8(ascii: "\\"): result.append(0x5C)
                    case UInt8(ascii: "/"): result.append(0x2F)
                    case UInt8(ascii: "b"): result.append(0x08)
                    case UInt8(ascii: "f"): result.append(0x0C)
                    case UInt8(ascii: "n"): result.append(0x0A)
                    case UInt8(ascii: "r"): result.append(0x0D)
                    case UInt8(ascii: "t"): result.append(0x09)
                    case UInt8(ascii: "u"):
                        guard offset + 4 <= bytes.count,
                            let code = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
                        else { throw error("a bad \\u escape") }
                        offset += 4
                        // Surrogates (characters beyond the basic plane) are refused: keycodes are ASCII.
                        guard let scalar = Unicode.Scalar(code) else { throw error("a \\u escape of a surrogate") }
                        result += Array(String(Character(scalar)).utf8)
                    default:
                        throw error("an unknown escape in a string")
                    }
                } else {
                    result.append(byte)
                    offset += 1
                }
            }
        }
    }
}

/// Writes JSON text.
enum JSONText {
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
