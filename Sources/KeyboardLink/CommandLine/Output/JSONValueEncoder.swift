/// Encodes an `Encodable` value as a ``JSONValue``: the one encoder of kblink's `--json` output.
///
/// Keys are the coding keys of the type (Swift property names, so camelCase), in the order the type encodes them
/// (declaration order for a synthesized `encode(to:)`), so the text is stable. An optional that is nil is written
/// as `null` (not left out): every key a command documents is always there. A ``JSONValue`` inside the value is
/// written as it is.
package struct JSONValueEncoder: Sendable {
    /// An encoder.
    package init() {}

    /// The JSON form of `value`.
    /// - Throws: `EncodingError.invalidValue` when `value` encodes nothing.
    package func encode(_ value: some Encodable) throws -> JSONValue {
        let storage = Slot()
        try ValueEncoder.encode(value, into: storage, codingPath: [])
        guard storage.value != nil || storage.members != nil || storage.items != nil else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "\(type(of: value)) encoded nothing"))
        }
        return storage.resolved
    }
}

extension JSONValue: Encodable {
    /// Encodes the value as it is with ``JSONValueEncoder``; with another encoder, as its own JSON shape.
    package func encode(to encoder: any Encoder) throws {
        if let valueEncoder = encoder as? ValueEncoder {
            valueEncoder.slot.value = self
            return
        }
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let members):
            var container = encoder.container(keyedBy: JSONKey.self)
            for (key, value) in members { try container.encode(value, forKey: JSONKey(key)) }
        }
    }
}

/// A JSON object's key as a coding key (for objects whose keys are data, such as a firmware dictionary).
package struct JSONKey: CodingKey, Sendable {
    package let stringValue: String
    package var intValue: Int? { nil }

    /// The key `text`.
    package init(_ text: String) { stringValue = text }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { stringValue = String(intValue) }
}

/// Where one value being encoded goes: a container's element or the top-level result. A reference, so that a
/// nested container written after it was handed out still lands in its parent.
final class Slot {
    var value: JSONValue?
    /// The members of an object being built (keys in the order written; a key written again replaces its value).
    var members: [(String, Slot)]?
    /// The items of an array being built.
    var items: [Slot]?

    init() {}

    /// The value, with the containers opened on it folded in.
    var resolved: JSONValue {
        if let members { return .object(members.map { ($0.0, $0.1.resolved) }) }
        if let items { return .array(items.map(\.resolved)) }
        return value ?? .null
    }
}

/// The `Encoder` behind ``JSONValueEncoder``. Not thread-safe: one encoding runs on one thread.
struct ValueEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(slot: Slot, codingPath: [any CodingKey]) {
        self.slot = slot
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.members == nil { slot.members = [] }
        return KeyedEncodingContainer(KeyedContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.items == nil { slot.items = [] }
        return UnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(slot: slot, codingPath: codingPath)
    }

    /// The JSON form of a leaf value, or nil when `value` needs its own `encode(to:)`. The leaf types are told
    /// apart by their metatype, not by `as?`: a dynamic cast per candidate type cost more than the rest of the
    /// encoding (`kblink list --json` of 1,000 keyboards, docs/performance.md). A type that is none of them, an
    /// optional included, encodes itself and reaches here again with its wrapped value.
    static func leaf<T: Encodable>(_ value: T) -> JSONValue? {
        // Called only after `T.self == U.self` held: the bit cast is from a type to itself.
        func cast<U>(_: U.Type) -> U { unsafeBitCast(value, to: U.self) }
        let type = T.self
        if type == String.self { return .string(cast(String.self)) }
        if type == Bool.self { return .bool(cast(Bool.self)) }
        if type == Int.self { return .integer(Int64(cast(Int.self))) }
        if type == JSONValue.self { return cast(JSONValue.self) }
        if type == Double.self { return .number(cast(Double.self)) }
        if type == Int64.self { return .integer(cast(Int64.self)) }
        if type == Int32.self { return .integer(Int64(cast(Int32.self))) }
        if type == Int16.self { return .integer(Int64(cast(Int16.self))) }
        if type == Int8.self { return .integer(Int64(cast(Int8.self))) }
        if type == UInt8.self { return .integer(Int64(cast(UInt8.self))) }
        if type == UInt16.self { return .integer(Int64(cast(UInt16.self))) }
        if type == UInt32.self { return .integer(Int64(cast(UInt32.self))) }
        if type == UInt.self {
            let value = cast(UInt.self)
            return Int64(exactly: value).map { .integer($0) } ?? .number(Double(value))
        }
        if type == UInt64.self {
            let value = cast(UInt64.self)
            return Int64(exactly: value).map { .integer($0) } ?? .number(Double(value))
        }
        if type == Float.self { return .number(Double(cast(Float.self))) }
        return nil
    }

    /// Encodes `value` into `slot`. The coding path is built only for a value that encodes itself (a leaf needs
    /// none).
    static func encode(
        _ value: some Encodable, into slot: Slot, codingPath: @autoclosure () -> [any CodingKey]
    ) throws {
        if let leaf = leaf(value) {
            slot.value = leaf
            return
        }
        try value.encode(to: ValueEncoder(slot: slot, codingPath: codingPath()))
    }
}

struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    /// The slot of `key`: a new member, or the existing one when the key was written before.
    private func member(_ key: Key) -> Slot {
        if let existing = slot.members?.first(where: { $0.0 == key.stringValue }) { return existing.1 }
        let member = Slot()
        slot.members?.append((key.stringValue, member))
        return member
    }

    mutating func encodeNil(forKey key: Key) throws { member(key).value = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try ValueEncoder.encode(value, into: member(key), codingPath: codingPath + [key])
    }

    // A nil optional is written as null: kblink's JSON keeps every documented key.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        ValueEncoder(slot: member(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ValueEncoder(slot: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        ValueEncoder(slot: member(Key(stringValue: "super")!), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ValueEncoder(slot: member(key), codingPath: codingPath + [key])
    }
}

struct UnkeyedContainer: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var count: Int { slot.items?.count ?? 0 }

    private func next() -> Slot {
        let item = Slot()
        slot.items?.append(item)
        return item
    }

    mutating func encodeNil() throws { next().value = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try ValueEncoder.encode(value, into: next(), codingPath: codingPath + [JSONKey(intValue: index)!])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        ValueEncoder(slot: next(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        ValueEncoder(slot: next(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(slot: next(), codingPath: codingPath) }
}

struct SingleContainer: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.value = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try ValueEncoder.encode(value, into: slot, codingPath: codingPath)
    }
}
