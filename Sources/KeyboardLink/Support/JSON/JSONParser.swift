/// Reads JSON text (RFC 8259) into a ``JSONNode`` tree.
///
/// Strict about the grammar (no comments, no single quotes, no leading zeros, no bare control characters in
/// strings, valid UTF-8, paired surrogates) except that a trailing comma before `]` or `}` is accepted, as
/// Foundation's `JSONDecoder` accepted it for files written before kblink had its own reader. Nesting is limited to
/// ``maximumDepth`` so that hostile input cannot exhaust the stack.
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON value filling the whole text (whitespace around it is fine).
    /// - Throws: ``JSONSyntaxError`` naming the problem and its line and column.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        guard parser.index < bytes.count else { throw parser.error("the text is empty, expected a JSON value") }
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected \(parser.found) after the value") }
        return value
    }

    // MARK: Values

    private mutating func value() throws(JSONSyntaxError) -> JSONNode {
        guard index < bytes.count else { throw error("the text ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(found), expected a value")
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        index += 1
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONNode {
        try enter()
        var members: [(key: String, value: JSONNode)] = []
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("the text ends inside an object") }
            if bytes[index] == UInt8(ascii: "}") { break }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error("unexpected \(found), expected a key") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(found), expected ':' after the key")
            }
            index += 1
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            guard index < bytes.count else { throw error("the text ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] != UInt8(ascii: "}") {
                throw error("unexpected \(found), expected ',' or '}'")
            }
        }
        index += 1
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONNode {
        try enter()
        var items: [JSONNode] = []
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("the text ends inside a list") }
            if bytes[index] == UInt8(ascii: "]") { break }
            items.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw error("the text ends inside a list") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] != UInt8(ascii: "]") {
                throw error("unexpected \(found), expected ',' or ']'")
            }
        }
        index += 1
        depth -= 1
        return .array(items)
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected)
        else { throw error("unexpected \(found), expected a value") }
        index += expected.count
    }

    private mutating func number() throws(JSONSyntaxError) -> String {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.index
            while parser.index < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
            {
                parser.index += 1
            }
            return parser.index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("unexpected \(found), expected a digit") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            index = integerStart
            throw error("a number has a leading zero")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("unexpected \(found), expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("unexpected \(found), expected an exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var text: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw error("the text ends inside a string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            if byte < 0x20 { throw error("a string holds the control character \(found); write it as an escape") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            text.append(contentsOf: bytes[runStart..<index])
            index += 1
            guard index < bytes.count else { throw error("the text ends inside a string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("a \\u escape holds an unpaired surrogate") }
                    index += 2
                    let low = try hexQuad()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("a \\u escape holds an unpaired surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("a \\u escape holds an unpaired surrogate")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("a \\u escape is not a character") }
                text.append(contentsOf: String(Character(unicode)).utf8)
            default:
                index -= 1
                throw error("unknown escape \\\(found)")
            }
            runStart = index
        }
        guard let result = String(validating: text, as: UTF8.self) else {
            index -= 1
            throw error("a string is not valid UTF-8")
        }
        return result
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("the text ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("unexpected \(found) in a \\u escape, expected a hexadecimal digit")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The byte at the current position, for messages: `'x'`, `byte 0x01`, `the end of the text`.
    private var found: String {
        guard index < bytes.count else { return "the end of the text" }
        let byte = bytes[index]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16)
        return "byte 0x\(hex.count == 1 ? "0" : "")\(hex)"
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return JSONSyntaxError(reason: reason, line: line, column: column)
    }
}
