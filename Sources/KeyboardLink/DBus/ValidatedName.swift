/// A D-Bus name or object path checked against the specification's rules when it is made, so that an invalid one is
/// a thrown ``InvalidNameError`` here instead of a libdbus abort later.
///
/// ``BusName``, ``ObjectPath``, ``InterfaceName``, ``MemberName`` and ``ErrorName`` each say what they are and which
/// rule they follow; the initialisers are shared:
///
/// ```swift
/// let path = try ObjectPath(text)                 // throws InvalidNameError
/// let maybe = ObjectPath(validating: text)       // nil when invalid
/// let root: ObjectPath = "/org/example/thermostat" // a literal: a constant of the program
/// ```
///
/// A literal is checked when it is made and an invalid one stops the program (a precondition): it is a programming
/// error, like an out-of-range index. Text that comes from outside (arguments, files, messages) goes through the
/// throwing or failable initialiser. Note that `ObjectPath("...")` with a literal argument is that literal, not a call
/// of the throwing initialiser.
public protocol ValidatedName: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral
where StringLiteralType == String {
    /// What the name is, for error messages: `object path`, `bus name`...
    static var kind: String { get }
    /// The rule `text` breaks, nil when it is valid.
    static func check(_ text: String) -> String?
    /// The validated text.
    var rawValue: String { get }
    /// Wraps text that passed ``check(_:)`` (only the binding can make a ``CheckedNameText``).
    init(checked: CheckedNameText)
}

/// Text that a ``ValidatedName``'s check accepted, or that libdbus validated when it read a message. Only the binding
/// makes one, so a name made from it is valid.
public struct CheckedNameText: Sendable {
    @usableFromInline let text: String

    @usableFromInline
    init(_ text: String) { self.text = text }
}

extension ValidatedName {
    /// Validates `rawValue`.
    /// - Throws: ``InvalidNameError`` naming the broken rule.
    public init(_ rawValue: String) throws(InvalidNameError) {
        if let reason = Self.check(rawValue) {
            throw InvalidNameError(kind: Self.kind, text: rawValue, reason: reason)
        }
        self.init(checked: CheckedNameText(rawValue))
    }

    /// Validates `rawValue`, returning nil when it is invalid.
    public init?(validating rawValue: String) {
        guard Self.check(rawValue) == nil else { return nil }
        self.init(checked: CheckedNameText(rawValue))
    }

    /// A constant of the program: an invalid literal is a programming error and stops the program.
    public init(stringLiteral value: String) {
        self.init(constant: value)
    }

    /// A name the program declares as text (a ``DBusMethod``'s name, say): checked always, and an invalid one is a
    /// programming error, as for a literal.
    init(constant text: String) {
        if let reason = Self.check(text) {
            preconditionFailure("invalid \(Self.kind) constant \"\(text)\": \(reason)")
        }
        self.init(checked: CheckedNameText(text))
    }

    /// For text libdbus has already validated (names in received messages): no second check.
    @usableFromInline
    init(unchecked rawValue: String) {
        self.init(checked: CheckedNameText(rawValue))
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
