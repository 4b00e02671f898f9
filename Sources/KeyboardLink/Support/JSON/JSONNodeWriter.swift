/// Writes a ``JSONNode`` as JSON text, byte for byte as Foundation's `JSONEncoder` wrote kblink's files (so that
/// files written before and after kblink had its own writer diff cleanly): with ``Options/prettyPrinted``, two
/// spaces per level, `"key" : value`, and an empty list or object as an opening line, an empty line and a closing
/// line; `/` escaped as `\/` unless ``Options/withoutEscapingSlashes``; numbers as the node holds them.
package struct JSONNodeWriter {
    /// How to lay the text out.
    package struct Options: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// One member or item per line, indented by two spaces per level.
        package static let prettyPrinted = Options(rawValue: 1)
        /// Object members by key, in the byte order of their UTF-8 text.
        package static let sortedKeys = Options(rawValue: 2)
        /// `/` as is rather than `\/`.
        package static let withoutEscapingSlashes = Options(rawValue: 4)
    }

    private let options: Options
    private var output: [UInt8] = []

    /// The text of `node`.
    static func write(_ node: JSONNode, options: Options) -> [UInt8] {
        var writer = JSONNodeWriter(options: options)
        writer.output.reserveCapacity(1_024)
        writer.write(node, indent: 0)
        return writer.output
    }

    private init(options: Options) {
        self.options = options
    }

    private mutating func write(_ node: JSONNode, indent: Int) {
        switch node {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): writeString(text)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            if items.isEmpty {
                closeEmpty(UInt8(ascii: "]"), indent: indent)
                return
            }
            for (position, item) in items.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent: indent + 2)
                write(item, indent: indent + 2)
            }
            newline(indent: indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if members.isEmpty {
                closeEmpty(UInt8(ascii: "}"), indent: indent)
                return
            }
            let ordered =
                options.contains(.sortedKeys)
                ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : members
            for (position, member) in ordered.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent: indent + 2)
                writeString(member.key)
                output.append(contentsOf: options.contains(.prettyPrinted) ? Array(" : ".utf8) : [UInt8(ascii: ":")])
                write(member.value, indent: indent + 2)
            }
            newline(indent: indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    private mutating func closeEmpty(_ bracket: UInt8, indent: Int) {
        if options.contains(.prettyPrinted) {
            output.append(0x0A)
            newline(indent: indent)
        }
        output.append(bracket)
    }

    private mutating func newline(indent: Int) {
        guard options.contains(.prettyPrinted) else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }

    private mutating func writeString(_ text: String) {
        output.append(UInt8(ascii: "\""))
        JSONStringEscaping.appendEscaped(
            text, to: &output, escapingSlashes: !options.contains(.withoutEscapingSlashes))
        output.append(UInt8(ascii: "\""))
    }
}
