/// A Swift type with a fixed D-Bus type: its signature is derived from the Swift type, and values convert
/// both ways. Decoding a value of another type throws ``DBusError`` (`InvalidArgs`), never traps.
public protocol DBusRepresentable: Sendable {
    /// The D-Bus type this Swift type travels as.
    static var dbusType: DBusType { get }
    /// Converts from the dynamic form.
    /// - Throws: ``DBusError`` with `org.freedesktop.DBus.Error.InvalidArgs` on a type mismatch.
    init(dbusValue: DBusValue) throws
    /// Converts to the dynamic form.
    var dbusValue: DBusValue { get }
}

/// A D-Bus basic type, usable as a dictionary key.
public protocol DBusBasicRepresentable: DBusRepresentable, Hashable {}

@inline(__always)
func typeMismatch(_ expected: DBusType, _ got: DBusValue) -> DBusError {
    .invalidArgs("expected a value of type '\(expected.signature)', got '\(got.type.signature)'")
}

extension UInt8: DBusBasicRepresentable {
    public static var dbusType: DBusType { .byte }
    public init(dbusValue: DBusValue) throws {
        guard case .byte(let v) = dbusValue else { throw typeMismatch(.byte, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .byte(self) }
}

extension Bool: DBusBasicRepresentable {
    public static var dbusType: DBusType { .boolean }
    public init(dbusValue: DBusValue) throws {
        guard case .boolean(let v) = dbusValue else { throw typeMismatch(.boolean, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .boolean(self) }
}

extension Int16: DBusBasicRepresentable {
    public static var dbusType: DBusType { .int16 }
    public init(dbusValue: DBusValue) throws {
        guard case .int16(let v) = dbusValue else { throw typeMismatch(.int16, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .int16(self) }
}

extension UInt16: DBusBasicRepresentable {
    public static var dbusType: DBusType { .uint16 }
    public init(dbusValue: DBusValue) throws {
        guard case .uint16(let v) = dbusValue else { throw typeMismatch(.uint16, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .uint16(self) }
}

extension Int32: DBusBasicRepresentable {
    public static var dbusType: DBusType { .int32 }
    public init(dbusValue: DBusValue) throws {
        guard case .int32(let v) = dbusValue else { throw typeMismatch(.int32, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .int32(self) }
}

extension UInt32: DBusBasicRepresentable {
    public static var dbusType: DBusType { .uint32 }
    public init(dbusValue: DBusValue) throws {
        guard case .uint32(let v) = dbusValue else { throw typeMismatch(.uint32, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .uint32(self) }
}

extension Int64: DBusBasicRepresentable {
    public static var dbusType: DBusType { .int64 }
    public init(dbusValue: DBusValue) throws {
        guard case .int64(let v) = dbusValue else { throw typeMismatch(.int64, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .int64(self) }
}

extension UInt64: DBusBasicRepresentable {
    public static var dbusType: DBusType { .uint64 }
    public init(dbusValue: DBusValue) throws {
        guard case .uint64(let v) = dbusValue else { throw typeMismatch(.uint64, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .uint64(self) }
}

extension Double: DBusBasicRepresentable {
    public static var dbusType: DBusType { .double }
    public init(dbusValue: DBusValue) throws {
        guard case .double(let v) = dbusValue else { throw typeMismatch(.double, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .double(self) }
}

extension String: DBusBasicRepresentable {
    public static var dbusType: DBusType { .string }
    public init(dbusValue: DBusValue) throws {
        guard case .string(let v) = dbusValue else { throw typeMismatch(.string, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .string(self) }
}

extension ObjectPath: DBusBasicRepresentable {
    public static var dbusType: DBusType { .objectPath }
    public init(dbusValue: DBusValue) throws {
        guard case .objectPath(let v) = dbusValue else { throw typeMismatch(.objectPath, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .objectPath(self) }
}

extension Signature: DBusBasicRepresentable {
    public static var dbusType: DBusType { .signature }
    public init(dbusValue: DBusValue) throws {
        guard case .signature(let v) = dbusValue else { throw typeMismatch(.signature, dbusValue) }
        self = v
    }
    public var dbusValue: DBusValue { .signature(self) }
}

/// A Unix file descriptor carried in a message (`h`). The number is only valid while the message lives.
public struct UnixFileDescriptor: DBusBasicRepresentable {
    public var rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    public static var dbusType: DBusType { .unixFD }
    public init(dbusValue: DBusValue) throws {
        guard case .unixFD(let v) = dbusValue else { throw typeMismatch(.unixFD, dbusValue) }
        rawValue = v
    }
    public var dbusValue: DBusValue { .unixFD(rawValue) }
}

/// `DBusValue` itself is the Swift form of a variant (`v`).
extension DBusValue: DBusRepresentable {
    public static var dbusType: DBusType { .variant }
    public init(dbusValue: DBusValue) throws {
        guard case .variant(let inner) = dbusValue else { throw typeMismatch(.variant, dbusValue) }
        self = inner
    }
    public var dbusValue: DBusValue { .variant(self) }
}

extension Array: DBusRepresentable where Element: DBusRepresentable {
    public static var dbusType: DBusType { .array(Element.dbusType) }
    public init(dbusValue: DBusValue) throws {
        guard case .array(_, let values) = dbusValue else { throw typeMismatch(Self.dbusType, dbusValue) }
        self = try values.map { try Element(dbusValue: $0) }
    }
    public var dbusValue: DBusValue { .array(Element.dbusType, map(\.dbusValue)) }
}

extension Dictionary: DBusRepresentable where Key: DBusBasicRepresentable, Value: DBusRepresentable {
    public static var dbusType: DBusType { .dictionary(key: Key.dbusType, value: Value.dbusType) }
    public init(dbusValue: DBusValue) throws {
        guard case .dictionary(_, _, let entries) = dbusValue else { throw typeMismatch(Self.dbusType, dbusValue) }
        var result: [Key: Value] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            result[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value)
        }
        self = result
    }
    public var dbusValue: DBusValue {
        // Sorted by key text so that the wire form is deterministic.
        let entries = map { DBusDictionaryEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) }
        return .dictionary(key: Key.dbusType, value: Value.dbusType, entries.sorted { "\($0.key)" < "\($1.key)" })
    }
}

/// A D-Bus struct (`(...)`) whose fields are typed Swift values, for example `DBusStruct<String, UInt32>` for `(su)`.
public struct DBusStruct<each Field: DBusRepresentable>: DBusRepresentable {
    /// The fields in order.
    public var fields: (repeat each Field)

    /// Creates a struct from its fields.
    public init(_ fields: repeat each Field) {
        self.fields = (repeat each fields)
    }

    public static var dbusType: DBusType {
        var types: [DBusType] = []
        for fieldType in repeat (each Field).self {
            types.append(fieldType.dbusType)
        }
        return .structure(types)
    }

    public init(dbusValue: DBusValue) throws {
        guard case .structure(let values) = dbusValue, case .structure(let types) = Self.dbusType,
            values.count == types.count
        else { throw typeMismatch(Self.dbusType, dbusValue) }
        var reader = DBusValueReader(values)
        self.fields = (repeat try reader.next((each Field).self))
    }

    public var dbusValue: DBusValue {
        var values: [DBusValue] = []
        for field in repeat each fields {
            values.append(field.dbusValue)
        }
        return .structure(values)
    }
}

/// Reads typed values one after another from a list of dynamic values (a struct's fields or a message body).
public struct DBusValueReader {
    let values: [DBusValue]
    var index = 0

    public init(_ values: [DBusValue]) { self.values = values }

    /// Decodes the next value as `type`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when no value is left or its type differs.
    public mutating func next<T: DBusRepresentable>(_ type: T.Type) throws -> T {
        guard index < values.count else {
            throw DBusError.invalidArgs("expected another argument of type '\(T.dbusType.signature)'")
        }
        defer { index += 1 }
        return try T(dbusValue: values[index])
    }

    /// Whether every value has been read.
    public var isAtEnd: Bool { index >= values.count }
}
