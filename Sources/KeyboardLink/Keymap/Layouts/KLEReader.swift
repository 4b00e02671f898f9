/// Reads keyboard-layout-editor (KLE) data: JSON, or the looser "raw data" form KLE shows (unquoted property
/// names, no outer brackets, trailing commas).
struct KLEReader {
    /// A value of the KLE data.
    indirect enum Value: Equatable {
        case array([Value])
        case object([(String, Value)])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null

        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.array(let a), .array(let b)): return a == b
            case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
            case (.string(let a), .string(let b)): return a == b
            case (.number(let a), .number(let b)): return a == b
            case (.bool(let a), .bool(let b)): return a == b
            case (.null, .null): return true
            default: return false
            }
        }
    }

    static let maximumLength = 1 << 20
    private static let maximumDepth = 16

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The rows: the elements of the outer array, or the top-level values of raw data.
    mutating func rows() throws(KeymapError) -> [Value] {
        guard scalars.count <= Self.maximumLength else { throw fail("the KLE data is larger than 1 MiB") }
        var values: [Value] = []
        skipSpace()
        while index < scalars.count {
            values.append(try value())
            skipSpace()
            if index < scalars.count, scalars[index] == "," {
                index += 1
                skipSpace()
            } else if index < scalars.count {
                throw fail("expected ',' between rows")
            }
        }
        if values.count == 1, case .array(let inner) = values[0],
            inner.contains(where: { if case .array = $0 { return true } else { return false } })
        {
            return inner
        }
        return values
    }

    private func fail(_ reason: String) -> KeymapError {
        .invalidLayout("KLE data, character \(index + 1): \(reason)")
    }

    private mutating func skipSpace() {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
    }

    private mutating func value() throws(KeymapError) -> Value {
        skipSpace()
        guard index < scalars.count else { throw fail("unexpected end of data") }
        switch scalars[index] {
        case "[":
            return .array(try list(close: "]") { (reader: inout KLEReader) throws(KeymapError) in try reader.value() })
        case "{":
            return .object(
                try list(close: "}") { (reader: inout KLEReader) throws(KeymapError) in try reader.member() })
        case "\"":
            return .string(try string())
        default:
            let word = bareWord()
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default:
                guard let number = Double(word), number.isFinite else {
                    throw fail("unexpected '\(KeymapError.printable(word.isEmpty ? String(scalars[index]) : word))'")
                }
                return .number(number)
            }
        }
    }

    private mutating func list<Element>(
        close: Unicode.Scalar, _ element: (inout KLEReader) throws(KeymapError) -> Element
    ) throws(KeymapError) -> [Element] {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
        index += 1
        var elements: [Element] = []
        while true {
            skipSpace()
            guard index < scalars.count else { throw fail("missing '\(close)'") }
            if scalars[index] == close {
                index += 1
                return elements
            }
            elements.append(try element(&self))
            skipSpace()
            guard index < scalars.count else { throw fail("missing '\(close)'") }
            if scalars[index] == "," {
                index += 1
            } else if scalars[index] != close {
                throw fail("expected ',' or '\(close)'")
            }
        }
    }

    private mutating func member() throws(KeymapError) -> (String, Value) {
        let key: String
        if scalars[index] == "\"" {
            key = try string()
        } else {
            key = bareWord()
            guard !key.isEmpty else { throw fail("expected a property name") }
        }
        skipSpace()
        guard index < scalars.count, scalars[index] == ":" else { throw fail("expected ':' after '\(key)'") }
        index += 1
        return (key, try value())
    }

    private mutating func bareWord() -> String {
        var word = ""
        while index < scalars.count {
            let scalar = scalars[index]
            guard
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-._".unicodeScalars.contains(scalar)
            else { break }
            word.unicodeScalars.append(scalar)
            index += 1
        }
        return word
    }

    private mutating func string() throws(KeymapError) -> String {
        index += 1
        var text = ""
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"":
                return text
            case "\\":
                guard index < scalars.count else { throw fail("unfinished escape") }
                let escaped = scalars[index]
                index += 1
                switch escaped {
                case "n": text += "\n"
                case "t": text += "\t"
                case "r": text += "\r"
                case "b", "f": break
                case "u":
                    guard index + 4 <= scalars.count,
                        let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16)
                    else { throw fail("bad \\u escape") }
                    index += 4
                    if let decoded = Unicode.Scalar(code) { text.unicodeScalars.append(decoded) }
                default: text.unicodeScalars.append(escaped)
                }
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        throw fail("a string is not closed")
    }
}
