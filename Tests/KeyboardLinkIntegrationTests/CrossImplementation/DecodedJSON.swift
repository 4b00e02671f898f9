import Foundation
import KeyboardLinkTestSupport

/// One JSON value printed by a Python helper script, decoded for assertions.
enum DecodedJSON: Equatable, Sendable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DecodedJSON])
    case object([String: DecodedJSON])

    /// Parses one line of JSON text.
    /// - Throws: ``ToolProcess/Failure`` naming the line when it is not JSON.
    init(line: String) throws {
        do {
            self = try JSONDecoder().decode(DecodedJSON.self, from: Data(line.utf8))
        } catch {
            throw ToolProcess.Failure(description: "not a JSON line: \(line) (\(error))")
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([DecodedJSON].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: DecodedJSON].self))
        }
    }

    /// A member of an object; `.null` when absent or not an object.
    subscript(key: String) -> DecodedJSON {
        if case .object(let members) = self { return members[key] ?? .null }
        return .null
    }

    /// An element of an array; `.null` when out of range or not an array.
    subscript(index: Int) -> DecodedJSON {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return .null
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let value): "\(value)"
        case .string(let text): "\"\(text)\""
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

extension DecodedJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: DecodedJSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, DecodedJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension ToolProcess {
    /// The next standard-output line, parsed as JSON.
    func nextJSON(timeout: Duration = waitDeadline) async throws -> DecodedJSON {
        try DecodedJSON(line: try await nextLine(timeout: timeout))
    }
}
