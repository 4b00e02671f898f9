/// Reads D-Bus values straight from a message body's wire bytes (the D-Bus specification's marshalling format),
/// without libdbus's iterator and without building ``DBusValue`` trees for typed values.
///
/// ``DBusRepresentable`` types read themselves from it (``DBusRepresentable/init(dbusWire:)``). Only bytes libdbus
/// has validated reach a reader (a received message, or ``Message/init(marshalled:)``), so it trusts names, UTF-8 and
/// signatures' placement, but it still bounds-checks every read and throws on anything inconsistent: a bad message
/// is an error, never a trap. The reader keeps its bytes alive, so it is safe to copy.
public struct DBusWireReader {
    /// Owns the bytes the reader points into.
    @usableFromInline let owner: WireBody
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let count: Int
    /// The absolute offset in the message (alignment is relative to the message start).
    @usableFromInline var offset: Int
    @usableFromInline let bigEndian: Bool
    /// Parsed variant signatures other than single basic types, by their text.
    @usableFromInline var variantTypes: [String: DBusType] = [:]
    /// How many more dynamic values (``DBusValue``s, containers and their elements each count) this reader builds
    /// before it refuses the message: the receiving connection's budget per message
    /// (``CallLimits/maximumValuesPerMessage``), so that no message, from whatever peer, makes it build a larger tree.
    @usableFromInline var remainingValues: Int

    init(owner: WireBody, bodyOffset: Int, bigEndian: Bool) {
        self.owner = owner
        self.base = owner.base
        self.count = owner.count
        self.offset = bodyOffset
        self.bigEndian = bigEndian
        self.remainingValues = owner.valueBudget
    }

    @usableFromInline
    static func malformed(_ what: String) -> DBusError {
        .invalidArgs("malformed message body: \(what)")
    }

    /// Finds the body of a complete marshalled message: its endianness and where the body starts.
    static func bodyOffset(of bytes: UnsafeRawBufferPointer) throws -> (offset: Int, bigEndian: Bool) {
        guard bytes.count >= 16 else { throw malformed("the header is truncated") }
        let bigEndian: Bool
        switch bytes[0] {
        case UInt8(ascii: "l"): bigEndian = false
        case UInt8(ascii: "B"): bigEndian = true
        default: throw malformed("unknown byte order")
        }
        var fieldsLength = bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
        if bigEndian { fieldsLength = fieldsLength.byteSwapped }
        let end = 16 + Int(fieldsLength)
        let body = (end + 7) & ~7
        guard body <= bytes.count else { throw malformed("the header fields overrun the message") }
        return (body, bigEndian)
    }

    // MARK: Primitive reads

    /// Skips the padding before a value aligned to `boundary` (a power of two).
    @inlinable @inline(__always)
    public mutating func align(_ boundary: Int) throws {
        let padded = (offset &+ boundary &- 1) & ~(boundary &- 1)
        guard padded <= count else { throw Self.malformed("padding runs past the end") }
        offset = padded
    }

    /// Reads an aligned fixed-size integer in the message's byte order.
    @inlinable @inline(__always)
    public mutating func read<T: FixedWidthInteger>(_: T.Type) throws -> T {
        try align(MemoryLayout<T>.size)
        guard offset &+ MemoryLayout<T>.size <= count else { throw Self.malformed("a value runs past the end") }
        let value = base.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset &+= MemoryLayout<T>.size
        return bigEndian ? value.byteSwapped : value
    }

    /// Reads a string, object path (4-byte length) or signature (1-byte length) as text.
    @inlinable @inline(__always)
    public mutating func readText(lengthBytes: Int) throws -> String {
        let length: Int
        if lengthBytes == 1 {
            length = Int(try read(UInt8.self))
        } else {
            length = Int(try read(UInt32.self))
        }
        guard offset &+ length &+ 1 <= count else { throw Self.malformed("a string runs past the end") }
        let text = String(decoding: UnsafeRawBufferPointer(start: base + offset, count: length), as: UTF8.self)
        offset &+= length &+ 1
        return text
    }

    /// Reads a container's length and skips to its first element; returns where the container ends.
    @inlinable @inline(__always)
    public mutating func beginArray(elementAlignment: Int) throws -> Int {
        let length = Int(try read(UInt32.self))
        try align(elementAlignment)
        let end = offset &+ length
        guard end <= count else { throw Self.malformed("an array runs past the end") }
        return end
    }

    /// Checks that a container's elements ended exactly at its declared end.
    @inlinable @inline(__always)
    public func endArray(_ end: Int) throws {
        guard offset == end else { throw Self.malformed("an array's elements overrun its length") }
    }

    /// Reads the next value as a typed Swift value (the caller has checked the type).
    @inlinable @inline(__always)
    public mutating func next<T: DBusRepresentable>(_: T.Type) throws -> T {
        try T(dbusWire: &self)
    }

    /// The alignment of a value of `type` on the wire.
    @inlinable
    public static func alignment(of type: DBusType) -> Int {
        switch type {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFD, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }

    // MARK: Dynamic values

    /// Reads one value of a known type as a ``DBusValue``.
    public mutating func value(_ type: DBusType) throws -> DBusValue {
        try value(type, depth: 0)
    }

    /// Reads a variant's signature and then its value.
    public mutating func variant() throws -> DBusValue {
        try variantValue(depth: 0)
    }

    mutating func variantValue(depth: Int) throws -> DBusValue {
        // Most variants hold one basic type: read it by its code, without building a String or a DBusType.
        let length = Int(try read(UInt8.self))
        if length == 1, offset + 2 <= count {
            let code = base.load(fromByteOffset: offset, as: UInt8.self)
            offset += 2
            switch code {
            case UInt8(ascii: "s"): return .string(try readText(lengthBytes: 4))
            case UInt8(ascii: "b"): return .boolean(try read(UInt32.self) != 0)
            case UInt8(ascii: "u"): return .uint32(try read(UInt32.self))
            case UInt8(ascii: "i"): return .int32(Int32(bitPattern: try read(UInt32.self)))
            case UInt8(ascii: "y"): return .byte(try read(UInt8.self))
            case UInt8(ascii: "n"): return .int16(Int16(bitPattern: try read(UInt16.self)))
            case UInt8(ascii: "q"): return .uint16(try read(UInt16.self))
            case UInt8(ascii: "o"): return .objectPath(ObjectPath(unchecked: try readText(lengthBytes: 4)))
            default:
                if let basic = Self.basicType(code) { return try value(basic, depth: depth + 1) }
                offset -= 2
            }
        }
        offset -= 1
        let inner = try variantType(try readText(lengthBytes: 1))
        return try value(inner, depth: depth + 1)
    }

    mutating func value(_ type: DBusType, depth: Int) throws -> DBusValue {
        // libdbus refuses messages nesting deeper than 64; this bound only protects the stack.
        guard depth < 128 else { throw Self.malformed("values nest deeper than 128") }
        remainingValues -= 1
        guard remainingValues >= 0 else {
            throw DBusError.limitsExceeded("the message holds more than \(owner.valueBudget) values")
        }
        switch type {
        case .byte: return .byte(try read(UInt8.self))
        case .boolean: return .boolean(try read(UInt32.self) != 0)
        case .int16: return .int16(Int16(bitPattern: try read(UInt16.self)))
        case .uint16: return .uint16(try read(UInt16.self))
        case .int32: return .int32(Int32(bitPattern: try read(UInt32.self)))
        case .uint32: return .uint32(try read(UInt32.self))
        case .int64: return .int64(Int64(bitPattern: try read(UInt64.self)))
        case .uint64: return .uint64(try read(UInt64.self))
        case .double: return .double(Double(bitPattern: try read(UInt64.self)))
        case .string: return .string(try readText(lengthBytes: 4))
        case .objectPath: return .objectPath(ObjectPath(unchecked: try readText(lengthBytes: 4)))
        case .signature: return .signature(try Signature(try readText(lengthBytes: 1)))
        case .unixFD: throw Self.malformed("file descriptors are decoded through libdbus")
        case .variant: return .variant(try variantValue(depth: depth))
        case .array(let element):
            let end = try beginArray(elementAlignment: Self.alignment(of: element))
            var values: [DBusValue] = []
            while offset < end {
                values.append(try value(element, depth: depth + 1))
            }
            try endArray(end)
            return .array(element, values)
        case .dictionary(let keyType, let valueType):
            let end = try beginArray(elementAlignment: 8)
            var entries: [DBusDictionaryEntry] = []
            while offset < end {
                try align(8)
                let key = try value(keyType, depth: depth + 1)
                let entryValue = try value(valueType, depth: depth + 1)
                entries.append(DBusDictionaryEntry(key: key, value: entryValue))
            }
            try endArray(end)
            return .dictionary(key: keyType, value: valueType, entries)
        case .structure(let fields):
            try align(8)
            var values: [DBusValue] = []
            values.reserveCapacity(fields.count)
            for field in fields {
                values.append(try value(field, depth: depth + 1))
            }
            return .structure(values)
        }
    }

    @inline(__always)
    static func basicType(_ code: UInt8) -> DBusType? {
        switch code {
        case UInt8(ascii: "y"): .byte
        case UInt8(ascii: "b"): .boolean
        case UInt8(ascii: "n"): .int16
        case UInt8(ascii: "q"): .uint16
        case UInt8(ascii: "i"): .int32
        case UInt8(ascii: "u"): .uint32
        case UInt8(ascii: "x"): .int64
        case UInt8(ascii: "t"): .uint64
        case UInt8(ascii: "d"): .double
        case UInt8(ascii: "s"): .string
        case UInt8(ascii: "o"): .objectPath
        case UInt8(ascii: "g"): .signature
        case UInt8(ascii: "v"): .variant
        default: nil
        }
    }

    /// The type in a variant's signature; single basic types without parsing, others parsed once and cached.
    private mutating func variantType(_ text: String) throws -> DBusType {
        let utf8 = text.utf8
        if utf8.count == 1, let code = utf8.first, let basic = Self.basicType(code) { return basic }
        if let known = variantTypes[text] { return known }
        let signature = try Signature(text)
        guard signature.types.count == 1 else {
            throw Self.malformed("a variant holds '\(text)', not one complete type")
        }
        if signature.rawValue.utf8.contains(UInt8(ascii: "h")) {
            throw Self.malformed("file descriptors are decoded through libdbus")
        }
        variantTypes[text] = signature.types[0]
        return signature.types[0]
    }
}
