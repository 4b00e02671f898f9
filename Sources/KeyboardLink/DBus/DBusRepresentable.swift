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
    /// Reads a value of this type from a message's wire bytes; the caller has checked that the next value on the wire
    /// has type ``dbusType``. The default reads a ``DBusValue`` and converts it with ``init(dbusValue:)``.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the bytes run out or disagree with the type.
    init(dbusWire reader: inout DBusWireReader) throws
}

extension DBusRepresentable {
    /// Reads the dynamic form of ``dbusType`` and converts it.
    public init(dbusWire reader: inout DBusWireReader) throws {
        try self.init(dbusValue: reader.value(Self.dbusType))
    }
}

/// A Swift type that travels as another ``DBusRepresentable`` type, its wire form: a record as a
/// ``DBusStruct`` of its fields, a word as a `String`. The type says only how it converts to and from its wire form;
/// its D-Bus type, both conversions and the direct reading from wire bytes (no ``DBusValue`` tree in between)
/// follow from the wire form.
public protocol DBusWireMapped: DBusRepresentable {
    /// What the value is on the wire.
    associatedtype WireForm: DBusRepresentable
    /// Converts from the wire form.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the wire form holds no valid value of this type.
    init(wireForm: WireForm) throws
    /// Converts to the wire form.
    var wireForm: WireForm { get }
}

extension DBusWireMapped {
    /// The wire form's type.
    @inlinable
    public static var dbusType: DBusType { WireForm.dbusType }
    /// Decodes the wire form and converts it.
    @inlinable
    public init(dbusValue: DBusValue) throws {
        try self.init(wireForm: WireForm(dbusValue: dbusValue))
    }
    /// The wire form's dynamic value.
    @inlinable
    public var dbusValue: DBusValue { wireForm.dbusValue }
    /// Reads the wire form straight from the bytes and converts it.
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        try self.init(wireForm: WireForm(dbusWire: &reader))
    }
}

/// A D-Bus basic type, usable as a dictionary key.
public protocol DBusBasicRepresentable: DBusRepresentable, Hashable {}

@usableFromInline
func typeMismatch(_ expected: DBusType, _ got: DBusValue) -> DBusError {
    .invalidArgs("expected a value of type '\(expected.signature)', got '\(got.type.signature)'")
}

extension UInt8: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .byte }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .byte(let v) = dbusValue else { throw typeMismatch(.byte, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .byte(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = try reader.read(UInt8.self)
    }
}

extension Bool: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .boolean }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .boolean(let v) = dbusValue else { throw typeMismatch(.boolean, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .boolean(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = try reader.read(UInt32.self) != 0
    }
}

extension Int16: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .int16 }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .int16(let v) = dbusValue else { throw typeMismatch(.int16, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .int16(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = Int16(bitPattern: try reader.read(UInt16.self))
    }
}

extension UInt16: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .uint16 }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .uint16(let v) = dbusValue else { throw typeMismatch(.uint16, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .uint16(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = try reader.read(UInt16.self)
    }
}

extension Int32: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .int32 }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .int32(let v) = dbusValue else { throw typeMismatch(.int32, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .int32(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = Int32(bitPattern: try reader.read(UInt32.self))
    }
}

extension UInt32: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .uint32 }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .uint32(let v) = dbusValue else { throw typeMismatch(.uint32, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .uint32(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = try reader.read(UInt32.self)
    }
}

extension Int64: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .int64 }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .int64(let v) = dbusValue else { throw typeMismatch(.int64, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .int64(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = Int64(bitPattern: try reader.read(UInt64.self))
    }
}

extension UInt64: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .uint64 }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .uint64(let v) = dbusValue else { throw typeMismatch(.uint64, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .uint64(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = try reader.read(UInt64.self)
    }
}

extension Double: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .double }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .double(let v) = dbusValue else { throw typeMismatch(.double, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .double(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = Double(bitPattern: try reader.read(UInt64.self))
    }
}

extension String: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .string }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .string(let v) = dbusValue else { throw typeMismatch(.string, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .string(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = try reader.readText(lengthBytes: 4)
    }
}

extension ObjectPath: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .objectPath }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .objectPath(let v) = dbusValue else { throw typeMismatch(.objectPath, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .objectPath(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        // libdbus validated every object path in the message.
        self = ObjectPath(unchecked: try reader.readText(lengthBytes: 4))
    }
}

extension Signature: DBusBasicRepresentable {
    @inlinable
    public static var dbusType: DBusType { .signature }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .signature(let v) = dbusValue else { throw typeMismatch(.signature, dbusValue) }
        self = v
    }
    @inlinable
    public var dbusValue: DBusValue { .signature(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = try Signature(try reader.readText(lengthBytes: 1))
    }
}

/// A Unix file descriptor carried in a message (`h`).
///
/// Ownership: a received descriptor belongs to the received ``Message`` and is closed when the last copy of the
/// message is released. As an argument of a typed method (``DBusMethod``) it is valid while the handler runs and
/// closed once the handler returns: `dup()` it to keep it, or to return it. A descriptor being sent stays the
/// sender's (libdbus sends a duplicate).
public struct UnixFileDescriptor: DBusBasicRepresentable {
    public var rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    @inlinable
    public static var dbusType: DBusType { .unixFD }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .unixFD(let v) = dbusValue else { throw typeMismatch(.unixFD, dbusValue) }
        rawValue = v
    }
    @inlinable
    public var dbusValue: DBusValue { .unixFD(rawValue) }
}

/// `DBusValue` itself is the Swift form of a variant (`v`).
extension DBusValue: DBusRepresentable {
    @inlinable
    public static var dbusType: DBusType { .variant }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .variant(let inner) = dbusValue else { throw typeMismatch(.variant, dbusValue) }
        self = inner
    }
    @inlinable
    public var dbusValue: DBusValue { .variant(self) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        self = try reader.variant()
    }
}

extension Array: DBusRepresentable where Element: DBusRepresentable {
    @inlinable
    public static var dbusType: DBusType { .array(Element.dbusType) }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .array(_, let values) = dbusValue else { throw typeMismatch(Self.dbusType, dbusValue) }
        self = try values.map { try Element(dbusValue: $0) }
    }
    @inlinable
    public var dbusValue: DBusValue { .array(Element.dbusType, map(\.dbusValue)) }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        let end = try reader.beginArray(elementAlignment: DBusWireReader.alignment(of: Element.dbusType))
        var result: [Element] = []
        while reader.offset < end {
            result.append(try Element(dbusWire: &reader))
        }
        try reader.endArray(end)
        self = result
    }
}

extension Dictionary: DBusRepresentable where Key: DBusBasicRepresentable, Value: DBusRepresentable {
    @inlinable
    public static var dbusType: DBusType { .dictionary(key: Key.dbusType, value: Value.dbusType) }
    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .dictionary(_, _, let entries) = dbusValue else { throw typeMismatch(Self.dbusType, dbusValue) }
        var result: [Key: Value] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            result[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value)
        }
        self = result
    }
    @inlinable
    public var dbusValue: DBusValue {
        // Sorted by key text so that the wire form is deterministic.
        let entries = map { DBusDictionaryEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) }
        return .dictionary(key: Key.dbusType, value: Value.dbusType, entries.sorted { "\($0.key)" < "\($1.key)" })
    }
    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        let end = try reader.beginArray(elementAlignment: 8)
        // Entries are collected first so that the dictionary is allocated once at its final size: growing it entry
        // by entry rehashes everything several times. Entries start 8 bytes apart at least, which bounds the count.
        var entries: [(Key, Value)] = []
        entries.reserveCapacity(Swift.min((end &- reader.offset) / 8 &+ 1, 64))
        while reader.offset < end {
            try reader.align(8)
            let key = try Key(dbusWire: &reader)
            entries.append((key, try Value(dbusWire: &reader)))
        }
        try reader.endArray(end)
        var result: [Key: Value] = Dictionary(minimumCapacity: entries.count)
        for (key, value) in entries {
            // A repeated key (the wire allows it) keeps its last value, as the dynamic path does.
            result[key] = value
        }
        self = result
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

    @inlinable
    public static var dbusType: DBusType {
        var types: [DBusType] = []
        for fieldType in repeat (each Field).self {
            types.append(fieldType.dbusType)
        }
        return .structure(types)
    }

    @inlinable
    public init(dbusValue: DBusValue) throws {
        guard case .structure(let values) = dbusValue, case .structure(let types) = Self.dbusType,
            values.count == types.count
        else { throw typeMismatch(Self.dbusType, dbusValue) }
        var reader = DBusValueReader(values)
        self.fields = (repeat try reader.next((each Field).self))
    }

    @inlinable
    public init(dbusWire reader: inout DBusWireReader) throws {
        try reader.align(8)
        self.fields = (repeat try reader.next((each Field).self))
    }

    @inlinable
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
    @usableFromInline let values: [DBusValue]
    @usableFromInline var index = 0

    @inlinable
    public init(_ values: [DBusValue]) { self.values = values }

    /// Decodes the next value as `type`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when no value is left or its type differs.
    @inlinable
    public mutating func next<T: DBusRepresentable>(_ type: T.Type) throws -> T {
        guard index < values.count else {
            throw DBusError.invalidArgs("expected another argument of type '\(T.dbusType.signature)'")
        }
        defer { index += 1 }
        return try T(dbusValue: values[index])
    }

    /// Whether every value has been read.
    @inlinable
    public var isAtEnd: Bool { index >= values.count }
}
