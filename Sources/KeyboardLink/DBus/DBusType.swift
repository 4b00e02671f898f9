/// One complete D-Bus type, the parsed form of a single complete type in a ``Signature``.
public indirect enum DBusType: Hashable, Sendable, CustomStringConvertible {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature, unixFD
    case variant
    case array(DBusType)
    case dictionary(key: DBusType, value: DBusType)
    case structure([DBusType])

    /// The type's signature text (`a{sv}`, `(oss)`, ...).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    public var description: String { signature }

    /// The length in bytes of ``signature``, without building it.
    var signatureLength: Int {
        switch self {
        case .array(let element): 1 + element.signatureLength
        case .dictionary(let key, let value): 3 + key.signatureLength + value.signatureLength
        case .structure(let fields): fields.reduce(2) { $0 + $1.signatureLength }
        default: 1
        }
    }

    /// Whether the type is basic (may be a dictionary key).
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }
}

/// A validated D-Bus type signature: zero or more complete types, at most 255 bytes, nesting within the
/// specification's limits (32 arrays, 32 structs).
public struct Signature: Hashable, Sendable, CustomStringConvertible {
    /// The signature text.
    public let rawValue: String
    /// The complete types it is made of.
    public let types: [DBusType]

    /// Parses and validates a signature.
    /// - Throws: ``InvalidNameError`` when the text is not a valid signature.
    public init(_ rawValue: String) throws(InvalidNameError) {
        var parser = SignatureParser(bytes: Array(rawValue.utf8))
        do {
            self.types = try parser.parseAll()
        } catch let failure {
            throw InvalidNameError(kind: "signature", text: rawValue, reason: failure.reason)
        }
        self.rawValue = rawValue
    }

    /// Builds a signature from types that are already complete.
    public init(_ types: [DBusType]) {
        self.types = types
        self.rawValue = types.map(\.signature).joined()
    }

    /// The empty signature.
    public static let empty = Signature([])

    public var description: String { rawValue }
}

struct SignatureParseFailure: Error {
    var reason: String
}

/// A recursive-descent parser over signature bytes.
struct SignatureParser {
    let bytes: [UInt8]
    var index = 0
    var arrayDepth = 0
    var structDepth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseAll() throws(SignatureParseFailure) -> [DBusType] {
        if bytes.count > 255 { throw SignatureParseFailure(reason: "a signature is at most 255 bytes") }
        var types: [DBusType] = []
        while index < bytes.count {
            types.append(try parseOne())
        }
        return types
    }

    mutating func parseOne() throws(SignatureParseFailure) -> DBusType {
        guard index < bytes.count else { throw SignatureParseFailure(reason: "the signature ends inside a type") }
        let byte = bytes[index]
        index += 1
        switch byte {
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
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"):
            arrayDepth += 1
            defer { arrayDepth -= 1 }
            if arrayDepth > 32 { throw SignatureParseFailure(reason: "arrays nest deeper than 32") }
            if index < bytes.count && bytes[index] == UInt8(ascii: "{") {
                index += 1
                structDepth += 1
                defer { structDepth -= 1 }
                if structDepth > 32 { throw SignatureParseFailure(reason: "structs nest deeper than 32") }
                let key = try parseOne()
                guard key.isBasic else {
                    throw SignatureParseFailure(reason: "a dictionary key must be a basic type")
                }
                let value = try parseOne()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                    throw SignatureParseFailure(reason: "a dictionary entry holds exactly two types and ends with '}'")
                }
                index += 1
                return .dictionary(key: key, value: value)
            }
            return .array(try parseOne())
        case UInt8(ascii: "("):
            structDepth += 1
            defer { structDepth -= 1 }
            if structDepth > 32 { throw SignatureParseFailure(reason: "structs nest deeper than 32") }
            var fields: [DBusType] = []
            while true {
                guard index < bytes.count else { throw SignatureParseFailure(reason: "a struct is not closed") }
                if bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    break
                }
                fields.append(try parseOne())
            }
            if fields.isEmpty { throw SignatureParseFailure(reason: "a struct cannot be empty") }
            return .structure(fields)
        case UInt8(ascii: "{"):
            throw SignatureParseFailure(reason: "a dictionary entry may appear only as an array element")
        default:
            throw SignatureParseFailure(reason: "unknown type code '\(Unicode.Scalar(byte).escaped(asASCII: true))'")
        }
    }
}
