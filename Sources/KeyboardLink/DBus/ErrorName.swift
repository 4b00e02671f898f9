/// A validated D-Bus error name.
///
/// Creating one checks the D-Bus specification's rules in Swift, so an invalid error name is a thrown
/// InvalidNameError here instead of a libdbus abort later.
public struct ErrorName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The validated text.
    public let rawValue: String

    /// Validates `rawValue` as a error name.
    /// - Throws: InvalidNameError naming the broken rule.
    public init(_ rawValue: String) throws(InvalidNameError) {
        if let reason = NameValidation.checkDottedName(rawValue) {
            throw InvalidNameError(kind: "error name", text: rawValue, reason: reason)
        }
        self.rawValue = rawValue
    }

    /// Validates `rawValue`, returning nil when it is not a error name.
    public init?(validating rawValue: String) {
        guard NameValidation.checkDottedName(rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// For literals and text that libdbus already validated; checked always (a failure is a programming error).
    package init(trusted rawValue: String) {
        precondition(NameValidation.checkDottedName(rawValue) == nil, "invalid error name literal \(rawValue)")
        self.rawValue = rawValue
    }

    /// For text libdbus has already validated (names in received messages): no second check.
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
