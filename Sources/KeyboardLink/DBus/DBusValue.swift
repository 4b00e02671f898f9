/// A D-Bus value of any type: the dynamic form every message body is made of.
///
/// Containers carry their element types so that an empty array still has a signature.
public enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    /// A file descriptor. In a received message it belongs to the ``Message``, which closes it when its last copy is
    /// released (in a typed method's argument: when the handler returns); `dup()` it to keep it longer. In a message
    /// being sent it stays the caller's: libdbus sends a duplicate.
    case unixFD(Int32)
    indirect case variant(DBusValue)
    /// An array with its element type.
    case array(DBusType, [DBusValue])
    /// A dictionary (`a{kv}`) with its key and value types; entries keep their wire order.
    case dictionary(key: DBusType, value: DBusType, [DBusDictionaryEntry])
    case structure([DBusValue])

    /// The complete type of this value.
    public var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .variant: .variant
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        }
    }

    /// Whether this value, including every element of its containers, has type `expected`.
    public func conforms(to expected: DBusType) -> Bool {
        switch (self, expected) {
        case (.array(let element, let values), .array(let expectedElement)):
            return element == expectedElement && values.allSatisfy { $0.conforms(to: element) }
        case (.dictionary(let key, let value, let entries), .dictionary(let expectedKey, let expectedValue)):
            return key == expectedKey && value == expectedValue
                && entries.allSatisfy { $0.key.conforms(to: key) && $0.value.conforms(to: value) }
        case (.structure(let fields), .structure(let expectedFields)):
            return fields.count == expectedFields.count
                && zip(fields, expectedFields).allSatisfy { $0.conforms(to: $1) }
        case (.variant(let inner), .variant):
            return inner.conforms(to: inner.type)
        default:
            return type == expected
        }
    }

    /// The value inside any number of variant wrappers.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusDictionaryEntry: Hashable, Sendable {
    public var key: DBusValue
    public var value: DBusValue

    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// The text of a string, object path or signature value (looking through variants).
    public var stringValue: String? {
        switch unwrapped {
        case .string(let text): text
        case .objectPath(let path): path.rawValue
        case .signature(let signature): signature.rawValue
        default: nil
        }
    }

    /// A boolean value (looking through variants).
    public var boolValue: Bool? {
        if case .boolean(let flag) = unwrapped { return flag }
        return nil
    }

    /// Any integer value widened to `Int64`, when it fits (looking through variants).
    public var integerValue: Int64? {
        switch unwrapped {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }

    /// The elements of an array value (looking through variants).
    public var arrayValue: [DBusValue]? {
        if case .array(_, let values) = unwrapped { return values }
        return nil
    }

    /// A dictionary with string keys, as `[String: DBusValue]` (looking through variants).
    public var stringDictionary: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            guard let key = entry.key.stringValue else { return nil }
            result[key] = entry.value
        }
        return result
    }
}

extension DBusValue: CustomStringConvertible {
    /// A compact, bounded rendering for logs and test names: `u 7`, `as[2]`, `v<s "x">`.
    public var description: String {
        switch self {
        case .byte(let v): "y \(v)"
        case .boolean(let v): "b \(v)"
        case .int16(let v): "n \(v)"
        case .uint16(let v): "q \(v)"
        case .int32(let v): "i \(v)"
        case .uint32(let v): "u \(v)"
        case .int64(let v): "x \(v)"
        case .uint64(let v): "t \(v)"
        case .double(let v): "d \(v)"
        case .string(let v): v.count > 40 ? "s \"\(v.prefix(40))…\" (\(v.utf8.count) bytes)" : "s \"\(v)\""
        case .objectPath(let v): "o \(v)"
        case .signature(let v): "g \"\(v)\""
        case .unixFD(let v): "h \(v)"
        case .variant(let inner): "v<\(inner)>"
        case .array(let element, let values):
            // Joined, not `[String].description`, which quotes and escapes every element again at every level: the
            // text doubled with each nested array (2^32 characters for 32, which a peer may send).
            values.count > 4
                ? "a\(element)[\(values.count) items]"
                : "a\(element)[" + values.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let key, let value, let entries):
            entries.count > 4
                ? "a{\(key)\(value)}[\(entries.count) entries]"
                : "a{\(key)\(value)}[" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        }
    }
}
