import FoundationEssentials

/// The JSON settings shared by profiles, drafts and layouts: sorted keys and indentation for files people read
/// and diff, and short descriptions of decoding errors.
enum ProfileJSON {
    /// Encodes a value as pretty, key-sorted JSON followed by a newline.
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Our document types hold only strings, numbers, arrays and dictionaries: encoding cannot fail.
        guard let data = try? encoder.encode(value) else { return Array("{}\n".utf8) }
        return Array(data) + [0x0A]
    }

    /// A one-line description of a decoding error: what was wrong and where.
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return text.isEmpty ? "the document" : String(text.drop(while: { $0 == "." }))
        }
        switch decoding {
        case .typeMismatch(let type, let context):
            return "\(path(context)) should be \(Self.typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) is missing a \(Self.typeName(type))"
        case .keyNotFound(let key, let context):
            return "\(path(context)) lacks '\(key.stringValue)'"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { ": \($0)" } ?? ""
            return "\(path(context)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return "\(type)"
        }
    }
}
