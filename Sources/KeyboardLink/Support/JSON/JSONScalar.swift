/// The types a JSON scalar decodes to and encodes from directly: `Bool`, `String` and the standard numbers.
protocol JSONScalar {
    /// The value of `node`, or a `DecodingError` naming `codingPath`.
    static func decode(_ node: JSONNode, codingPath: [any CodingKey]) throws -> Self
    /// The node of `self`, or an `EncodingError` for a value JSON cannot hold (an infinite number).
    func encoded(codingPath: [any CodingKey]) throws -> JSONNode
}

extension JSONScalar {
    /// The `DecodingError` for `node` when `Self` was expected.
    static func mismatch(_ node: JSONNode, codingPath: [any CodingKey]) -> DecodingError {
        if case .null = node {
            return .valueNotFound(
                Self.self,
                .init(codingPath: codingPath, debugDescription: "Expected \(Self.self) but found null instead."))
        }
        return .typeMismatch(
            Self.self,
            .init(
                codingPath: codingPath,
                debugDescription: "Expected \(Self.self) but found \(node.kindDescription) instead."
            ))
    }
}

extension Bool: JSONScalar {
    static func decode(_ node: JSONNode, codingPath: [any CodingKey]) throws -> Bool {
        guard case .bool(let value) = node else { throw mismatch(node, codingPath: codingPath) }
        return value
    }

    func encoded(codingPath: [any CodingKey]) throws -> JSONNode { .bool(self) }
}

extension String: JSONScalar {
    static func decode(_ node: JSONNode, codingPath: [any CodingKey]) throws -> String {
        guard case .string(let value) = node else { throw mismatch(node, codingPath: codingPath) }
        return value
    }

    func encoded(codingPath: [any CodingKey]) throws -> JSONNode { .string(self) }
}

/// Integers: exact decimal text, or a number with a fraction or exponent whose value is a whole number that fits
/// (`1.0`, `1e2`), as Foundation's decoder read them.
protocol JSONInteger: JSONScalar, FixedWidthInteger {}

extension JSONInteger {
    static func decode(_ node: JSONNode, codingPath: [any CodingKey]) throws -> Self {
        guard case .number(let text) = node else { throw mismatch(node, codingPath: codingPath) }
        if let value = Self(text, radix: 10) { return value }
        if let double = Double(text), double.isFinite, let value = Self(exactly: double) { return value }
        throw DecodingError.dataCorrupted(
            .init(codingPath: codingPath, debugDescription: "The number \(text) does not fit in \(Self.self)."))
    }

    func encoded(codingPath: [any CodingKey]) throws -> JSONNode { .number(String(self)) }
}

extension Int: JSONInteger {}
extension Int8: JSONInteger {}
extension Int16: JSONInteger {}
extension Int32: JSONInteger {}
extension Int64: JSONInteger {}
extension UInt: JSONInteger {}
extension UInt8: JSONInteger {}
extension UInt16: JSONInteger {}
extension UInt32: JSONInteger {}
extension UInt64: JSONInteger {}

/// `Double` and `Float`: written as Swift describes them without a trailing `.0` (`1`, `3.75`, `1e-07`), as
/// Foundation's encoder wrote them; infinities and NaN cannot be written.
protocol JSONFloatingPoint: JSONScalar, BinaryFloatingPoint, LosslessStringConvertible {}

extension JSONFloatingPoint {
    static func decode(_ node: JSONNode, codingPath: [any CodingKey]) throws -> Self {
        guard case .number(let text) = node else { throw mismatch(node, codingPath: codingPath) }
        guard let value = Self(text), value.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "The number \(text) does not fit in \(Self.self)."))
        }
        return value
    }

    func encoded(codingPath: [any CodingKey]) throws -> JSONNode {
        guard isFinite else {
            throw EncodingError.invalidValue(
                self, .init(codingPath: codingPath, debugDescription: "\(self) cannot be written in JSON."))
        }
        var text = description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}

extension Double: JSONFloatingPoint {}
extension Float: JSONFloatingPoint {}
