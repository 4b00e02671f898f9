/// An `Encoder` building a ``JSONNode`` tree: lets the `Codable` profile, layout and cache types write JSON
/// without Foundation. A value that encodes nothing is an empty object, as with Foundation's encoder.
struct JSONNodeEncoder: Encoder {
    fileprivate let box: Box
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The tree of `value`.
    /// - Throws: `EncodingError` for a value JSON cannot hold (an infinite or NaN number).
    static func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey] = []) throws -> JSONNode {
        if let scalar = value as? any JSONScalar { return try scalar.encoded(codingPath: codingPath) }
        let box = Box()
        try value.encode(to: JSONNodeEncoder(box: box, codingPath: codingPath))
        return box.node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.becomeArray()
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(box: box, codingPath: codingPath)
    }
}

extension JSONNodeEncoder {
    /// A node under construction; containers hold references to it so that nested containers can fill it later.
    fileprivate final class Box {
        enum Content {
            case empty
            case value(JSONNode)
            case array([Box])
            case object(keys: [String], members: [String: Box])
        }

        var content = Content.empty

        init() {}

        init(_ node: JSONNode) {
            content = .value(node)
        }

        var node: JSONNode {
            switch content {
            case .empty: return .object([])
            case .value(let node): return node
            case .array(let items): return .array(items.map(\.node))
            case .object(let keys, let members):
                return .object(keys.compactMap { key in members[key].map { (key, $0.node) } })
            }
        }

        func becomeObject() {
            if case .object = content { return }
            content = .object(keys: [], members: [:])
        }

        func becomeArray() {
            if case .array = content { return }
            content = .array([])
        }

        func set(_ key: String, _ child: Box) {
            guard case .object(var keys, var members) = content else { return }
            content = .empty
            if members.updateValue(child, forKey: key) == nil { keys.append(key) }
            content = .object(keys: keys, members: members)
        }

        func append(_ child: Box) {
            guard case .array(var items) = content else { return }
            content = .empty
            items.append(child)
            content = .array(items)
        }
    }

    /// The box of `value`: its node for a scalar, else filled by its `encode(to:)`.
    fileprivate static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Box {
        if let scalar = value as? any JSONScalar { return Box(try scalar.encoded(codingPath: codingPath)) }
        let box = Box()
        try value.encode(to: JSONNodeEncoder(box: box, codingPath: codingPath))
        return box
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { box.set(key.stringValue, Box(.null)) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            box.set(key.stringValue, try JSONNodeEncoder.box(value, codingPath: codingPath + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = Box()
            box.set(key.stringValue, child)
            return JSONNodeEncoder(box: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Box()
            box.set(key.stringValue, child)
            return JSONNodeEncoder(box: child, codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let child = Box()
            box.set("super", child)
            return JSONNodeEncoder(box: child, codingPath: codingPath + [JSONCodingKey(stringValue: "super")])
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = Box()
            box.set(key.stringValue, child)
            return JSONNodeEncoder(box: child, codingPath: codingPath + [key])
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let box: Box
        let codingPath: [any CodingKey]
        private(set) var count = 0

        init(box: Box, codingPath: [any CodingKey]) {
            self.box = box
            self.codingPath = codingPath
        }

        private var key: JSONCodingKey { JSONCodingKey(intValue: count) }

        mutating func encodeNil() throws {
            box.append(Box(.null))
            count += 1
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            box.append(try JSONNodeEncoder.box(value, codingPath: codingPath + [key]))
            count += 1
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = Box()
            box.append(child)
            defer { count += 1 }
            return JSONNodeEncoder(box: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Box()
            box.append(child)
            defer { count += 1 }
            return JSONNodeEncoder(box: child, codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let child = Box()
            box.append(child)
            defer { count += 1 }
            return JSONNodeEncoder(box: child, codingPath: codingPath + [key])
        }
    }

    private struct SingleValueContainer: SingleValueEncodingContainer {
        let box: Box
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { box.content = .value(.null) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            if let scalar = value as? any JSONScalar {
                box.content = .value(try scalar.encoded(codingPath: codingPath))
            } else {
                try value.encode(to: JSONNodeEncoder(box: box, codingPath: codingPath))
            }
        }
    }
}
