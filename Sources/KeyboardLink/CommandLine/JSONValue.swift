import KeyboardLinkSupport

/// A JSON value with keys kept in the order they were written, so `--json` output is stable.
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered() == rhs.rendered()
    }

    /// Compact JSON text (one line).
    package func rendered() -> String {
        String(decoding: renderedBytes(), as: UTF8.self)
    }

    /// Compact JSON text as UTF-8 bytes, to be written out without a `String` in between.
    /// - Parameter capacity: bytes to reserve up front (a guess of the size spares regrowing a large buffer).
    package func renderedBytes(reservingCapacity capacity: Int = 256) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(capacity)
        write(to: &output)
        return output
    }

    /// Appends the compact JSON text to `output` (for writers that stream a long array through one buffer).
    package func append(to output: inout [UInt8]) {
        write(to: &output)
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): JSONTextWriter.appendInteger(value, to: &output)
        case .number(let value):
            if value.isFinite {
                let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
                output.append(contentsOf: text.utf8)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let text): JSONTextWriter.appendString(text, to: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONTextWriter.appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
