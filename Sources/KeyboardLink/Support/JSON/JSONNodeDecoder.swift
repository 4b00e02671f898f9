/// A `Decoder` over a ``JSONNode`` tree: lets the `Codable` profile, layout and cache types read JSON without
/// Foundation. Errors are the standard `DecodingError`s with the coding path of the offending value.
struct JSONNodeDecoder: Decoder {
    let node: JSONNode
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: JSONNode, codingPath: [any CodingKey] = []) {
        self.node = node
        self.codingPath = codingPath
    }

    /// Decodes `type` from `node`: scalars directly, everything else through its `init(from:)`.
    static func decode<T: Decodable>(_ type: T.Type, from node: JSONNode, codingPath: [any CodingKey]) throws -> T {
        if let scalar = type as? any JSONScalar.Type {
            // The cast cannot fail: `scalar` is `T.Type` seen through the protocol.
            guard let value = try scalar.decode(node, codingPath: codingPath) as? T else {
                throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "internal"))
            }
            return value
        }
        return try T(from: JSONNodeDecoder(node: node, codingPath: codingPath))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = node else { throw mismatch([String: Any].self) }
        var lookup: [String: JSONNode] = [:]
        lookup.reserveCapacity(members.count)
        // The first of repeated keys counts, as with Foundation's decoder.
        for member in members where lookup[member.key] == nil { lookup[member.key] = member.value }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: lookup, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = node else { throw mismatch([Any].self) }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        if case .null = node {
            return .valueNotFound(
                type, .init(codingPath: codingPath, debugDescription: "Expected \(type) but found null instead."))
        }
        return .typeMismatch(
            type,
            .init(
                codingPath: codingPath, debugDescription: "Expected \(type) but found \(node.kindDescription) instead.")
        )
    }
}

extension JSONNodeDecoder {
    private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONNode]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func node(_ key: Key) throws -> JSONNode {
            guard let node = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(codingPath: codingPath, debugDescription: "No value for the key '\(key.stringValue)'."))
            }
            return node
        }

        private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
            try JSONNodeDecoder.decode(type, from: try node(key), codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = try node(key) { return true }
            return false
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, key) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try JSONNodeDecoder(node: try node(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try JSONNodeDecoder(node: try node(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            JSONNodeDecoder(
                node: members["super"] ?? .null, codingPath: codingPath + [JSONCodingKey(stringValue: "super")])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONNodeDecoder(node: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    private struct UnkeyedContainer: UnkeyedDecodingContainer {
        let items: [JSONNode]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(items: [JSONNode], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        private var key: JSONCodingKey { JSONCodingKey(intValue: currentIndex) }

        private func next(_ type: Any.Type) throws -> JSONNode {
            guard currentIndex < items.count else {
                throw DecodingError.valueNotFound(
                    type,
                    .init(codingPath: codingPath + [key], debugDescription: "The list has only \(items.count) items."))
            }
            return items[currentIndex]
        }

        private mutating func value<T: Decodable>(_ type: T.Type) throws -> T {
            let result = try JSONNodeDecoder.decode(type, from: try next(type), codingPath: codingPath + [key])
            currentIndex += 1
            return result
        }

        mutating func decodeNil() throws -> Bool {
            guard case .null = try next(Never.self) else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
        mutating func decode(_ type: String.Type) throws -> String { try value(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try value(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try value(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try value(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            let container = try JSONNodeDecoder(node: try next([String: Any].self), codingPath: codingPath + [key])
                .container(keyedBy: type)
            currentIndex += 1
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let container = try JSONNodeDecoder(node: try next([Any].self), codingPath: codingPath + [key])
                .unkeyedContainer()
            currentIndex += 1
            return container
        }

        mutating func superDecoder() throws -> any Decoder {
            let decoder = JSONNodeDecoder(node: try next(Any.self), codingPath: codingPath + [key])
            currentIndex += 1
            return decoder
        }
    }

    private struct SingleValueContainer: SingleValueDecodingContainer {
        let node: JSONNode
        let codingPath: [any CodingKey]

        private func value<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONNodeDecoder.decode(type, from: node, codingPath: codingPath)
        }

        func decodeNil() -> Bool {
            if case .null = node { return true }
            return false
        }

        func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
        func decode(_ type: String.Type) throws -> String { try value(type) }
        func decode(_ type: Double.Type) throws -> Double { try value(type) }
        func decode(_ type: Float.Type) throws -> Float { try value(type) }
        func decode(_ type: Int.Type) throws -> Int { try value(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
    }
}
