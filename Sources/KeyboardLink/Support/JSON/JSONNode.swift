/// A parsed JSON value: what `JSONParser` reads and `JSONNodeWriter` writes, and what the `Codable` coders of
/// ``JSONCodec`` work on. Numbers keep their literal text so that integers of any width decode exactly.
indirect enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as JSON text (`-12`, `3.75`, `1e-07`).
    case number(String)
    case string(String)
    case array([JSONNode])
    /// Members in document order; a key may repeat in parsed input (the first one counts when decoding).
    case object([(key: String, value: JSONNode)])

    static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// What the value is, for error messages: `a string`, `a number`, `null`.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
