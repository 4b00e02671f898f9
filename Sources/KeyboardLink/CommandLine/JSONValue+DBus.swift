import KeyboardLinkDBus

extension JSONValue {
    /// A D-Bus value as JSON: numbers, strings, arrays; dictionaries with string keys as objects; structs as arrays.
    package init(_ value: DBusValue) {
        switch value {
        case .byte(let v): self = .integer(Int64(v))
        case .boolean(let v): self = .bool(v)
        case .int16(let v): self = .integer(Int64(v))
        case .uint16(let v): self = .integer(Int64(v))
        case .int32(let v): self = .integer(Int64(v))
        case .uint32(let v): self = .integer(Int64(v))
        case .int64(let v): self = .integer(v)
        case .uint64(let v): self = Int64(exactly: v).map { .integer($0) } ?? .number(Double(v))
        case .double(let v): self = .number(v)
        case .string(let v): self = .string(v)
        case .objectPath(let v): self = .string(v.rawValue)
        case .signature(let v): self = .string(v.rawValue)
        case .unixFD(let v): self = .integer(Int64(v))
        case .variant(let inner): self = JSONValue(inner)
        case .array(_, let values): self = .array(values.map(JSONValue.init))
        case .dictionary(_, _, let entries):
            self = .object(entries.map { ($0.key.stringValue ?? "\($0.key)", JSONValue($0.value)) })
        case .structure(let fields): self = .array(fields.map(JSONValue.init))
        }
    }
}
