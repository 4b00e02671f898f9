/// A validated D-Bus interface name.
///
/// Creating one checks the D-Bus specification's rules in Swift, so an invalid interface name is a thrown
/// InvalidNameError here instead of a libdbus abort later.
public struct InterfaceName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The validated text.
    public let rawValue: String

    /// Validates `rawValue` as a interface name.
    /// - Throws: InvalidNameError naming the broken rule.
    public init(_ rawValue: String) throws(InvalidNameError) {
        if let reason = NameValidation.checkDottedName(rawValue) {
            throw InvalidNameError(kind: "interface name", text: rawValue, reason: reason)
        }
        self.rawValue = rawValue
    }

    /// Validates `rawValue`, returning nil when it is not a interface name.
    public init?(validating rawValue: String) {
        guard NameValidation.checkDottedName(rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// For literals and text that libdbus already validated; checked always (a failure is a programming error).
    package init(trusted rawValue: String) {
        precondition(NameValidation.checkDottedName(rawValue) == nil, "invalid interface name literal \(rawValue)")
        self.rawValue = rawValue
    }

    /// For text libdbus has already validated (names in received messages): no second check.
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension InterfaceName {
    public static let dbus = InterfaceName(trusted: "org.freedesktop.DBus")
    public static let properties = InterfaceName(trusted: "org.freedesktop.DBus.Properties")
    public static let introspectable = InterfaceName(trusted: "org.freedesktop.DBus.Introspectable")
    public static let peer = InterfaceName(trusted: "org.freedesktop.DBus.Peer")
    public static let objectManager = InterfaceName(trusted: "org.freedesktop.DBus.ObjectManager")
}
