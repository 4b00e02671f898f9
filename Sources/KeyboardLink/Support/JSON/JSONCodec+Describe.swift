extension JSONCodec {
    /// A one-line description of a decoding error: what was wrong and where.
    package static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return text.isEmpty ? "the document" : String(text.drop(while: { $0 == "." }))
        }
        switch decoding {
        case .typeMismatch(let type, let context):
            return "\(path(context)) should be \(Self.typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) should be \(Self.typeName(type)), not null"
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
        case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "a list" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object"
        }
    }
}
