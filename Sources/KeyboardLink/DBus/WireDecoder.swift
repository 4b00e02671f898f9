/// Decodes a D-Bus message body straight from its wire bytes (the D-Bus specification's marshalling
/// format), without going through libdbus's iterator one call per value.
///
/// libdbus has already validated every message it hands us, so this decoder trusts names and UTF-8, but it
/// still bounds-checks every read and throws on anything inconsistent: a bad message is an error, never a trap.
struct WireDecoder {
    let bytes: UnsafeRawBufferPointer
    /// The absolute offset in the message (alignment is relative to the message start).
    var offset: Int
    let bigEndian: Bool
    private var variantTypes: [String: DBusType] = [:]

    init(bytes: UnsafeRawBufferPointer, bodyOffset: Int, bigEndian: Bool) {
        self.bytes = bytes
        self.offset = bodyOffset
        self.bigEndian = bigEndian
    }

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

    @inline(__always)
    mutating func align(_ boundary: Int) throws {
        let padded = (offset + boundary - 1) & ~(boundary - 1)
        guard padded <= bytes.count else { throw Self.malformed("padding runs past the end") }
        offset = padded
    }

    @inline(__always)
    mutating func read<T: FixedWidthInteger>(_: T.Type) throws -> T {
        try align(MemoryLayout<T>.size)
        guard offset + MemoryLayout<T>.size <= bytes.count else { throw Self.malformed("a value runs past the end") }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
        return bigEndian ? value.byteSwapped : value
    }

    @inline(__always)
    mutating func readText(lengthBytes: Int) throws -> String {
        let length: Int
        if lengthBytes == 1 {
            length = Int(try read(UInt8.self))
        } else {
            length = Int(try read(UInt32.self))
        }
        guard length >= 0, offset + length + 1 <= bytes.count else {
            throw Self.malformed("a string runs past the end")
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        offset += length + 1
        return text
    }

    static func alignment(of type: DBusType) -> Int {
        switch type {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFD, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }

    mutating func value(_ type: DBusType, depth: Int = 0) throws -> DBusValue {
        guard depth < 64 else { throw Self.malformed("values nest deeper than 64") }
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
        case .variant:
            // Most variants hold one basic type: read its code without building a String.
            let length = Int(try read(UInt8.self))
            let inner: DBusType
            if length == 1, offset + 2 <= bytes.count, let basic = Self.basicType(bytes[offset]) {
                inner = basic
                offset += 2
            } else {
                offset -= 1
                inner = try variantType(try readText(lengthBytes: 1))
            }
            return .variant(try value(inner, depth: depth + 1))
        case .array(let element):
            let length = Int(try read(UInt32.self))
            try align(Self.alignment(of: element))
            let end = offset + length
            guard end <= bytes.count else { throw Self.malformed("an array runs past the end") }
            var values: [DBusValue] = []
            while offset < end {
                values.append(try value(element, depth: depth + 1))
            }
            guard offset == end else { throw Self.malformed("an array's elements overrun its length") }
            return .array(element, values)
        case .dictionary(let keyType, let valueType):
            let length = Int(try read(UInt32.self))
            try align(8)
            let end = offset + length
            guard end <= bytes.count else { throw Self.malformed("a dictionary runs past the end") }
            var entries: [DBusDictionaryEntry] = []
            while offset < end {
                try align(8)
                let key = try value(keyType, depth: depth + 1)
                let entryValue = try value(valueType, depth: depth + 1)
                entries.append(DBusDictionaryEntry(key: key, value: entryValue))
            }
            guard offset == end else { throw Self.malformed("a dictionary's entries overrun its length") }
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
        if utf8.count == 1, let code = utf8.first {
            switch code {
            case UInt8(ascii: "y"): return .byte
            case UInt8(ascii: "b"): return .boolean
            case UInt8(ascii: "n"): return .int16
            case UInt8(ascii: "q"): return .uint16
            case UInt8(ascii: "i"): return .int32
            case UInt8(ascii: "u"): return .uint32
            case UInt8(ascii: "x"): return .int64
            case UInt8(ascii: "t"): return .uint64
            case UInt8(ascii: "d"): return .double
            case UInt8(ascii: "s"): return .string
            case UInt8(ascii: "o"): return .objectPath
            case UInt8(ascii: "g"): return .signature
            case UInt8(ascii: "v"): return .variant
            default: break
            }
        }
        if let known = variantTypes[text] { return known }
        let signature = try Signature(text)
        guard signature.types.count == 1 else {
            throw Self.malformed("a variant holds '\(text)', not one complete type")
        }
        if signature.types[0] == .unixFD || signature.rawValue.contains("h") {
            throw Self.malformed("file descriptors are decoded through libdbus")
        }
        variantTypes[text] = signature.types[0]
        return signature.types[0]
    }
}
