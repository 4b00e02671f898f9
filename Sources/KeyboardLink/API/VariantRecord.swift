import KeyboardLinkDBus

/// A record carried as `a{sv}`: named fields, each in a variant. Used where org.kblink1 keeps an answer or a set of
/// options open to new fields (`Push`, `Pull`, `ImportProfile`, `CheckAction`): a field added later is one more
/// key, which older peers skip. The typed records built on it (``PushRequest``, ``PushReport``, ``PullReport``,
/// ``ProfileImportRequest``, ``ProfileImportReport``) are the one codec both sides use.
public struct VariantRecord: Sendable, Equatable {
    /// The fields, by key, without their variant wrapper.
    public private(set) var fields: [String: DBusValue]
    /// The keys in the order they were set, so that a record encodes the same way every time.
    private var order: [String]
    /// What the record is, for error messages ("push option", "push answer").
    public let subject: String

    /// An empty record.
    public init(_ subject: String) {
        self.subject = subject
        fields = [:]
        order = []
    }

    /// Reads an `a{sv}` value.
    /// - Throws: `InvalidArgs` when the value is not a dictionary of strings to variants.
    public init(_ subject: String, dbusValue: DBusValue) throws {
        self.init(subject)
        guard case .dictionary(.string, .variant, let entries) = dbusValue else {
            throw KBlinkError.invalidArgs("a \(subject) record must be a{sv}, got \(dbusValue.type.signature)")
        }
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            if fields[key] == nil { order.append(key) }
            fields[key] = entry.value.unwrapped
        }
    }

    /// Sets a field.
    public mutating func set<Value: DBusRepresentable>(_ key: String, _ value: Value) {
        if fields[key] == nil { order.append(key) }
        fields[key] = value.dbusValue
    }

    /// The field `key` as `Value`, or nil when the record does not hold it.
    /// - Throws: `InvalidArgs` naming the field when it holds another type.
    public func optional<Value: DBusRepresentable>(_ key: String, as type: Value.Type = Value.self) throws -> Value? {
        guard let value = fields[key] else { return nil }
        guard value.type == Value.dbusType || Self.isEmptyArray(value, of: Value.dbusType) else {
            throw KBlinkError.invalidArgs(
                "\(subject) \(key) must be of type '\(Value.dbusType.signature)', got '\(value.type.signature)'")
        }
        return try Value(dbusValue: value)
    }

    /// The field `key` as `Value`, or `absent` when the record does not hold it.
    /// - Throws: `InvalidArgs` naming the field when it holds another type.
    public func value<Value: DBusRepresentable>(_ key: String, or absent: Value) throws -> Value {
        try optional(key) ?? absent
    }

    /// Refuses a key outside `known`: a request with a misspelt option is an error, not a silent default.
    /// - Throws: `InvalidArgs` naming the first unknown key and listing the known ones.
    public func requireKnownKeys(_ known: [String]) throws {
        for key in order where !known.contains(key) {
            throw KBlinkError.invalidArgs(
                "unknown \(subject) \"\(key.prefix(40))\"; known: \(known.joined(separator: ", "))")
        }
    }

    /// The record as `a{sv}`, its fields in the order they were set.
    public var dbusValue: DBusValue {
        .dictionary(
            key: .string, value: .variant,
            order.compactMap { key in
                fields[key].map { DBusDictionaryEntry(key: .string(key), value: .variant($0)) }
            })
    }

    /// An empty array may arrive typed by a peer that built it without knowing its rows' type (`av`); it reads as
    /// an empty array of any type.
    private static func isEmptyArray(_ value: DBusValue, of expected: DBusType) -> Bool {
        guard case .array(_, let rows) = value, rows.isEmpty, case .array = expected else { return false }
        return true
    }
}
