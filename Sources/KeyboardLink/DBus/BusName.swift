/// A validated D-Bus bus name.
///
/// Creating one checks the D-Bus specification's rules in Swift, so an invalid bus name is a thrown
/// InvalidNameError here instead of a libdbus abort later.
public struct BusName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The validated text.
    public let rawValue: String

    /// Validates `rawValue` as a bus name.
    /// - Throws: InvalidNameError naming the broken rule.
    public init(_ rawValue: String) throws(InvalidNameError) {
        if let reason = NameValidation.checkBusName(rawValue) {
            throw InvalidNameError(kind: "bus name", text: rawValue, reason: reason)
        }
        self.rawValue = rawValue
    }

    /// Validates `rawValue`, returning nil when it is not a bus name.
    public init?(validating rawValue: String) {
        guard NameValidation.checkBusName(rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// For literals and text that libdbus already validated; checked always (a failure is a programming error).
    package init(trusted rawValue: String) {
        precondition(NameValidation.checkBusName(rawValue) == nil, "invalid bus name literal \(rawValue)")
        self.rawValue = rawValue
    }

    /// For text libdbus has already validated (names in received messages): no second check.
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension BusName {
    /// The message bus itself.
    public static let messageBus = BusName(trusted: "org.freedesktop.DBus")
    /// Whether this is a unique connection name such as `:1.42`.
    public var isUnique: Bool { rawValue.hasPrefix(":") }
}
