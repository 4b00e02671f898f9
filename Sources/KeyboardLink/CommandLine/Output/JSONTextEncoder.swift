import KeyboardLinkSupport

/// Encodes an `Encodable` value as compact JSON text: the one encoder of kblink's `--json` output.
///
/// Keys are the coding keys of the type (Swift property names, so camelCase), in the order the type encodes them
/// (declaration order for a synthesized `encode(to:)`), so the text is stable. An optional that is nil is written
/// as `null` (not left out): every key a command documents is always there. A ``JSONValue`` inside the value is
/// written as it is.
///
/// The text is written as the value encodes itself, with no tree in between: a container is closed when its
/// parent writes its next member or when the value that opened it has encoded itself. So a container must be
/// written before its parent goes on (what every synthesized and hand-written `encode(to:)` of kblink does); a
/// write to a container that is already closed, a key written twice in one object, or two values where one goes,
/// is an `EncodingError`, never wrong text.
package struct JSONTextEncoder: Sendable {
    /// An encoder.
    package init() {}

    /// The JSON text of `value`, on one line, without a line end.
    /// - Throws: `EncodingError.invalidValue` when `value` encodes nothing or writes out of order.
    package func encode(_ value: some Encodable) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try append(value, to: &bytes)
        return bytes
    }

    /// Appends the JSON text of `value` to `output`; when encoding fails, `output` is left as it was.
    /// - Throws: `EncodingError.invalidValue` when `value` encodes nothing or writes out of order.
    package func append(_ value: some Encodable, to output: inout [UInt8]) throws {
        try Self.append(value, to: &output, with: JSONTextWriter())
    }

    /// Appends the JSON array of `items` to `output`, encoding them one after another with one writer (a list of
    /// 1,000 keyboards allocates its bookkeeping once, not per keyboard). `flush` gets `output` whenever it holds
    /// `flushBytes` or more, and may write it out and empty it.
    /// - Throws: `EncodingError.invalidValue` when an item encodes nothing or writes out of order; `output` then
    ///   ends before that item.
    package func appendArray<Item: Encodable>(
        _ items: [Item], to output: inout [UInt8], flushingAt flushBytes: Int, _ flush: (inout [UInt8]) -> Void
    ) throws {
        let writer = JSONTextWriter()
        output.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            try Self.append(item, to: &output, with: writer)
            if output.count >= flushBytes { flush(&output) }
        }
        output.append(UInt8(ascii: "]"))
    }

    private static func append(_ value: some Encodable, to output: inout [UInt8], with writer: JSONTextWriter) throws {
        writer.reset()
        try writer.encode(value, level: 0)
        writer.close(downTo: 0)
        if let failure = writer.failure { throw failure }
        guard writer.valuesStarted > 0 else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "\(type(of: value)) encoded nothing"))
        }
        writer.bytes.withBytes { output.append(contentsOf: $0) }
    }
}

extension JSONValue: Encodable {
    /// Encodes the value as its own JSON shape (``JSONTextEncoder`` writes it as it is, without calling this).
    package func encode(to encoder: any Encoder) throws {
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

/// The state of one encoding: the text so far and the containers open in it. A value at level 0 is the whole
/// document; the members or items of the container open at level `n` are values at level `n + 1`. A reference, so
/// that every container handed out writes to the same text. Not thread-safe: one encoding runs on one thread.
final class JSONTextWriter {
    /// A container whose closing bracket is not written yet.
    struct OpenContainer {
        /// Tells this container from another opened later at the same level.
        let id: Int
        /// The encoder it was opened through (a second request through the same encoder gets it again).
        let owner: Int
        let isObject: Bool
        /// Members or items written.
        var count = 0
        /// A key (or an array slot) was written and its value not yet: `null` goes there if none comes.
        var awaitingValue = false
        /// Where this object's keys start in ``JSONTextWriter/keyPrints``.
        let firstKey: Int
    }

    // The state below is exempt from the runtime's exclusivity checks, which cost a tenth of `kblink list --json`
    // (docs/performance.md). That is safe because one encoding runs on one thread and no access to a property
    // overlaps another access to it: each method mutates a property in a call that never reaches a value's own
    // code (appending to the byte buffer, pushing or popping a container, counting), and the calls out (a value's
    // own `encode(to:)`) happen between those accesses, never during one.

    @exclusivity(unchecked) var bytes = JSONByteBuffer()
    /// The open containers, outermost first; `open[n]` is at level `n`.
    @exclusivity(unchecked) private(set) var open: [OpenContainer] = []
    /// The key of the member being written in each open object (nil in an array), beside ``open``: the coding path
    /// is read from them. Apart from ``OpenContainer`` so that copying one copies no string.
    @exclusivity(unchecked) private var openKeys: [String?] = []
    /// The fingerprints of the keys of the open objects, each object's after its parent's, to refuse a key written
    /// twice (two different keys of one object with one 64-bit fingerprint would be refused too: an error, never
    /// wrong text, and unheard of).
    @exclusivity(unchecked) private var keyPrints: [UInt64] = []
    @exclusivity(unchecked) private var lastID = 0
    /// Values begun so far (leaves and containers).
    @exclusivity(unchecked) private(set) var valuesStarted = 0
    /// The first misuse met where the `Encoder` protocol gives no way to throw (opening a container).
    @exclusivity(unchecked) private(set) var failure: (any Error)?

    /// Ready for the next document: nothing open, nothing written, no misuse; the storage kept.
    func reset() {
        bytes.removeAll()
        open.removeAll(keepingCapacity: true)
        openKeys.removeAll(keepingCapacity: true)
        keyPrints.removeAll(keepingCapacity: true)
        valuesStarted = 0
        failure = nil
    }

    /// A new id for an encoder or a container.
    func newID() -> Int {
        lastID &+= 1
        return lastID
    }

    /// The coding path of the value at `level`: the keys (or item indexes) being written in the containers open
    /// around it. Built only for an error or when a value asks: the containers write in order, so what is open is
    /// the path.
    func codingPath(to level: Int) -> [any CodingKey] {
        zip(open.prefix(level), openKeys).map { container, key -> any CodingKey in
            container.isObject ? JSONKey(key ?? "") : JSONKey(intValue: max(container.count - 1, 0))!
        }
    }

    /// Writes the closing brackets of every container at `level` or deeper (a pending key gets `null`).
    func close(downTo level: Int) {
        while open.count > level {
            let container = open.removeLast()
            openKeys.removeLast()
            if container.awaitingValue { bytes.appendLiteral("null") }
            bytes.append(container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            if container.isObject { keyPrints.removeSubrange(container.firstKey...) }
        }
    }

    /// Whether a value may begin at `level` (its parent waits for one); counts it when it may.
    private func beginValue(at level: Int) -> Bool {
        if level == 0 {
            guard valuesStarted == 0 else { return false }
        } else {
            guard open.count >= level, open[level - 1].awaitingValue else { return false }
            open[level - 1].awaitingValue = false
        }
        valuesStarted &+= 1
        return true
    }

    /// What writing a second value in one place, or into a closed container, is.
    func misplacedValue(at level: Int) -> EncodingError {
        Self.misuse(codingPath(to: level), "a second value where one goes, or a write after its container closed")
    }

    /// Starts the next member (`key` given) or item of the container `id` at `level`: closes what its previous
    /// member left open and writes the separator and the key.
    func beginMember(of id: Int, at level: Int, key: String?) throws {
        guard open.count > level, open[level].id == id else {
            throw Self.misuse(
                codingPath(to: level) + (key.map { [JSONKey($0)] } ?? []),
                "a write to a container that is already closed")
        }
        close(downTo: level + 1)
        var container = open[level]
        if container.awaitingValue { bytes.appendLiteral("null") }
        if container.count > 0 { bytes.append(UInt8(ascii: ",")) }
        if let key {
            let print = Self.appendKey(key, to: &bytes)
            if keyPrints[container.firstKey...].contains(print) {
                throw Self.misuse(codingPath(to: level) + [JSONKey(key)], "the key \"\(key)\" written twice")
            }
            keyPrints.append(print)
            openKeys[level] = key
        }
        container.count &+= 1
        container.awaitingValue = true
        open[level] = container
    }

    /// Opens an object or array as the value at `level` for the encoder `owner`; answers its id. The same
    /// encoder asking again gets the container it opened.
    func openContainer(at level: Int, owner: Int, isObject: Bool) -> Int {
        if open.count > level, open[level].owner == owner {
            if open[level].isObject != isObject {
                recordMisuse(Self.misuse(codingPath(to: level), "an object and an array asked of one encoder"))
            }
            return open[level].id
        }
        close(downTo: level)
        if !beginValue(at: level) { recordMisuse(misplacedValue(at: level)) }
        let id = newID()
        open.append(OpenContainer(id: id, owner: owner, isObject: isObject, firstKey: keyPrints.count))
        openKeys.append(nil)
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return id
    }

    /// Writes `value` as the value at `level`: a leaf directly, anything else through its `encode(to:)`, whose
    /// containers are closed when it returns.
    func encode<T: Encodable>(_ value: T, level: Int) throws {
        if let leaf = Leaf(value) {
            try encode(leaf, level: level)
            return
        }
        try value.encode(to: TextEncoder(writer: self, level: level, owner: newID()))
        close(downTo: level)
    }

    /// Writes `leaf` as the value at `level`.
    func encode(_ leaf: Leaf, level: Int) throws {
        guard beginValue(at: level) else { throw misplacedValue(at: level) }
        leaf.write(to: &bytes)
    }

    /// Writes `null` as the value at `level`.
    func encodeNil(level: Int) throws {
        guard beginValue(at: level) else { throw misplacedValue(at: level) }
        bytes.appendLiteral("null")
    }

    /// Keeps the first misuse met where the `Encoder` protocol gives no way to throw; the encoding throws it.
    func recordMisuse(_ error: any Error) {
        if failure == nil { failure = error }
    }

    static func misuse(_ codingPath: [any CodingKey], _ what: String) -> EncodingError {
        .invalidValue(
            (), .init(codingPath: codingPath, debugDescription: "JSONTextEncoder: \(what) (containers write in order)"))
    }

    /// Whether `byte` goes into a JSON string as it is: printable ASCII but the quote and the backslash, or a
    /// byte of a multi-byte character other than the lead bytes that can start DEL, C1, bidi controls or
    /// zero-width characters (0xC2, 0xD8, 0xE2, 0xEF), which a device's name may carry and which are escaped.
    @inline(__always)
    static func isPlain(_ byte: UInt8) -> Bool {
        if byte < 0x7F { return byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") }
        return byte >= 0x80 && byte != 0xC2 && byte != 0xD8 && byte != 0xE2 && byte != 0xEF
    }

    /// Whether the eight bytes of `word` are all printable ASCII other than the quote and the backslash. A "no"
    /// may be wrong (the bytes are then looked at one by one), a "yes" never is.
    @inline(__always)
    static func isPlainASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        // A byte is zero, or below 0x20: the borrow of the subtraction reaches its high bit (the well-known
        // "haszero"/"hasless" bit tricks); a byte of 0x7F or more: it or it plus one has its high bit set.
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highBits }
        let control = (word &- ones &* 0x20) & ~word & highBits
        let high = (word | (word &+ ones)) & highBits
        let quote = hasZero(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
        let backslash = hasZero(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
        return control | high | quote | backslash == 0
    }

    /// Whether every byte of `bytes` is plain (``isPlain(_:)``): eight at a time, one by one where a word is not
    /// plain ASCII and for the last few. Answers also the text's fingerprint, taken in the same pass (FNV-1a over
    /// its 64-bit words, then its last bytes and its length: equal texts, equal fingerprints).
    @inline(__always)
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (plain: Bool, fingerprint: UInt64) {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var print: UInt64 = 0xcbf2_9ce4_8422_2325
        guard let base = bytes.baseAddress else { return (true, print) }
        let raw = UnsafeRawPointer(base)
        var plain = true
        var index = 0
        while index &+ 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            print = (print ^ word) &* prime
            if plain && !isPlainASCII(word) {
                for offset in index..<index &+ 8 where !isPlain(bytes[offset]) { plain = false }
            }
            index &+= 8
        }
        while index < bytes.count {
            print = (print ^ UInt64(bytes[index])) &* prime
            plain = plain && isPlain(bytes[index])
            index &+= 1
        }
        return (plain, (print ^ UInt64(bytes.count)) &* prime)
    }

    /// Writes a JSON string: text that needs no escaping (the usual case) is copied in one go, the rest escaped
    /// (quotes, controls, DEL, C1, bidi controls and zero-width characters).
    static func appendString<Sink: JSONByteSink & ~Copyable>(_ text: String, to output: inout Sink) {
        output.append(UInt8(ascii: "\""))
        var text = text
        let copied = text.withUTF8 { bytes -> Bool in
            guard scan(bytes).plain else { return false }
            output.appendBytes(bytes)
            return true
        }
        if !copied { appendEscaped(text, to: &output) }
        output.append(UInt8(ascii: "\""))
    }

    /// Writes an object's key and its colon; answers the key's fingerprint (``scan(_:)``).
    static func appendKey<Sink: JSONByteSink & ~Copyable>(_ key: String, to output: inout Sink) -> UInt64 {
        output.append(UInt8(ascii: "\""))
        var key = key
        let (copied, print) = key.withUTF8 { bytes -> (Bool, UInt64) in
            let (plain, print) = scan(bytes)
            if plain { output.appendBytes(bytes) }
            return (plain, print)
        }
        if !copied { appendEscaped(key, to: &output) }
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
        return print
    }

    /// Writes the characters of `text` escaped, without the quotes.
    private static func appendEscaped<Sink: JSONByteSink & ~Copyable>(_ text: String, to output: inout Sink) {
        var escaped: [UInt8] = []
        JSONStringEscaping.appendEscaped(text, to: &escaped, escapingSlashes: false, escapingInvisibles: true)
        output.appendBytes(escaped)
    }

    /// Writes an integer in decimal without building a `String`.
    static func appendInteger<Sink: JSONByteSink & ~Copyable>(_ value: Int64, to output: inout Sink) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            output.append(UInt8(ascii: "0") &+ UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in  // 20 digits at most
            var index = buffer.count
            while magnitude > 0 {
                index -= 1
                buffer.initializeElement(at: index, to: UInt8(ascii: "0") &+ UInt8(magnitude % 10))
                magnitude /= 10
            }
            output.appendBytes(UnsafeBufferPointer(rebasing: buffer[index...]))
        }
    }
}

/// A value written as JSON without its own `encode(to:)`: a string, a number, a boolean or a ``JSONValue``.
enum Leaf {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case json(JSONValue)

    /// The leaf form of `value`, or nil when it needs its own `encode(to:)`. The leaf types are told apart by
    /// their metatype, not by `as?`: a dynamic cast per candidate type cost more than the rest of the encoding
    /// (`kblink list --json` of 1,000 keyboards, docs/performance.md). A type that is none of them, an optional
    /// included, encodes itself and reaches here again with its wrapped value.
    @inline(__always)
    init?<T: Encodable>(_ value: T) {
        // Called only after `T.self == U.self` held: the bit cast is from a type to itself.
        func cast<U>(_: U.Type) -> U { unsafeBitCast(value, to: U.self) }
        let type = T.self
        if type == String.self {
            self = .string(cast(String.self))
        } else if type == Bool.self {
            self = .bool(cast(Bool.self))
        } else if type == Int.self {
            self = .integer(Int64(cast(Int.self)))
        } else if type == JSONValue.self {
            self = .json(cast(JSONValue.self))
        } else if type == Double.self {
            self = .number(cast(Double.self))
        } else if type == Int64.self {
            self = .integer(cast(Int64.self))
        } else if type == Int32.self {
            self = .integer(Int64(cast(Int32.self)))
        } else if type == Int16.self {
            self = .integer(Int64(cast(Int16.self)))
        } else if type == Int8.self {
            self = .integer(Int64(cast(Int8.self)))
        } else if type == UInt8.self {
            self = .integer(Int64(cast(UInt8.self)))
        } else if type == UInt16.self {
            self = .integer(Int64(cast(UInt16.self)))
        } else if type == UInt32.self {
            self = .integer(Int64(cast(UInt32.self)))
        } else if type == UInt.self {
            let value = cast(UInt.self)
            self = Int64(exactly: value).map { .integer($0) } ?? .number(Double(value))
        } else if type == UInt64.self {
            let value = cast(UInt64.self)
            self = Int64(exactly: value).map { .integer($0) } ?? .number(Double(value))
        } else if type == Float.self {
            self = .number(Double(cast(Float.self)))
        } else {
            return nil
        }
    }

    func write<Sink: JSONByteSink & ~Copyable>(to output: inout Sink) {
        switch self {
        case .string(let text): JSONTextWriter.appendString(text, to: &output)
        case .bool(let value): value ? output.appendLiteral("true") : output.appendLiteral("false")
        case .integer(let value): JSONTextWriter.appendInteger(value, to: &output)
        case .number(let value): output.appendBytes(JSONValue.number(value).renderedBytes(reservingCapacity: 24))
        case .json(let value): output.appendBytes(value.renderedBytes())
        }
    }
}

/// The `Encoder` behind ``JSONTextEncoder``: the value at one level, encoding itself.
struct TextEncoder: Encoder {
    let writer: JSONTextWriter
    let level: Int
    /// This encoder's id (a value asking it for its container twice gets one container).
    let owner: Int
    var codingPath: [any CodingKey] { writer.codingPath(to: level) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let id = writer.openContainer(at: level, owner: owner, isObject: true)
        return KeyedEncodingContainer(KeyedTextContainer<Key>(writer: writer, level: level, id: id))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let id = writer.openContainer(at: level, owner: owner, isObject: false)
        return UnkeyedTextContainer(writer: writer, level: level, id: id)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleTextContainer(writer: writer, level: level)
    }
}

struct KeyedTextContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONTextWriter
    /// The level this object is at; its members are at `level + 1`.
    let level: Int
    let id: Int
    var codingPath: [any CodingKey] { writer.codingPath(to: level) }

    private func begin(_ key: Key) throws {
        try writer.beginMember(of: id, at: level, key: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        try writer.encodeNil(level: level + 1)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try writer.encode(value, level: level + 1)
    }

    // The leaf types the protocol names are written without looking at their type again.
    mutating func encode(_ value: String, forKey key: Key) throws { try encodeLeaf(.string(value), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encodeLeaf(.bool(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeLeaf(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeLeaf(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeLeaf(.integer(Int64(value)), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encodeLeaf(.number(value), key) }

    private func encodeLeaf(_ leaf: Leaf, _ key: Key) throws {
        try begin(key)
        try writer.encode(leaf, level: level + 1)
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

    /// The encoder of the value under `key`; nil (and the misuse recorded) when this container is closed.
    private func memberEncoder(_ key: Key) -> TextEncoder {
        do {
            try begin(key)
        } catch {
            writer.recordMisuse(error)
        }
        return TextEncoder(writer: writer, level: level + 1, owner: writer.newID())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        memberEncoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        memberEncoder(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { memberEncoder(Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { memberEncoder(key) }
}

struct UnkeyedTextContainer: UnkeyedEncodingContainer {
    let writer: JSONTextWriter
    /// The level this array is at; its items are at `level + 1`.
    let level: Int
    let id: Int
    var codingPath: [any CodingKey] { writer.codingPath(to: level) }
    private(set) var count = 0

    init(writer: JSONTextWriter, level: Int, id: Int) {
        self.writer = writer
        self.level = level
        self.id = id
    }

    private mutating func begin() throws {
        try writer.beginMember(of: id, at: level, key: nil)
        count += 1
    }

    mutating func encodeNil() throws {
        try begin()
        try writer.encodeNil(level: level + 1)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        try writer.encode(value, level: level + 1)
    }

    mutating func encode(_ value: String) throws { try encodeLeaf(.string(value)) }
    mutating func encode(_ value: Bool) throws { try encodeLeaf(.bool(value)) }
    mutating func encode(_ value: Int) throws { try encodeLeaf(.integer(Int64(value))) }
    mutating func encode(_ value: UInt8) throws { try encodeLeaf(.integer(Int64(value))) }
    mutating func encode(_ value: Double) throws { try encodeLeaf(.number(value)) }

    private mutating func encodeLeaf(_ leaf: Leaf) throws {
        try begin()
        try writer.encode(leaf, level: level + 1)
    }

    /// The encoder of the next item; the misuse recorded when this container is closed.
    private mutating func itemEncoder() -> TextEncoder {
        do {
            try begin()
        } catch {
            writer.recordMisuse(error)
        }
        return TextEncoder(writer: writer, level: level + 1, owner: writer.newID())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        itemEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { itemEncoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { itemEncoder() }
}

struct SingleTextContainer: SingleValueEncodingContainer {
    let writer: JSONTextWriter
    let level: Int
    var codingPath: [any CodingKey] { writer.codingPath(to: level) }

    mutating func encodeNil() throws { try writer.encodeNil(level: level) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try writer.encode(value, level: level)
    }

    mutating func encode(_ value: String) throws {
        try writer.encode(Leaf.string(value), level: level)
    }
    mutating func encode(_ value: Bool) throws {
        try writer.encode(Leaf.bool(value), level: level)
    }
    mutating func encode(_ value: Int) throws {
        try writer.encode(Leaf.integer(Int64(value)), level: level)
    }
}
