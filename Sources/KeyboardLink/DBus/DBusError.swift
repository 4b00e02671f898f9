/// An error that travels over D-Bus: a validated error name and a message a person can act on.
///
/// Errors received from a peer arrive as `DBusError`; handlers of exported methods throw it (or any
/// ``DBusErrorRepresentable``) to answer with that name. Any other error thrown by a handler is answered as
/// `org.freedesktop.DBus.Error.Failed` with its description.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, such as `org.freedesktop.DBus.Error.UnknownMethod`.
    public var name: ErrorName
    /// A message for people.
    public var message: String

    /// Creates an error with a validated name.
    public init(_ name: ErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name.rawValue): \(message)" }
}

extension DBusError {
    /// The standard `org.freedesktop.DBus.Error.*` errors.
    public static func failed(_ message: String) -> DBusError { .init(.failed, message) }
    public static func invalidArgs(_ message: String) -> DBusError { .init(.invalidArgs, message) }
    public static func unknownObject(_ message: String) -> DBusError { .init(.unknownObject, message) }
    public static func unknownInterface(_ message: String) -> DBusError { .init(.unknownInterface, message) }
    public static func unknownMethod(_ message: String) -> DBusError { .init(.unknownMethod, message) }
    public static func unknownProperty(_ message: String) -> DBusError { .init(.unknownProperty, message) }
    public static func propertyReadOnly(_ message: String) -> DBusError { .init(.propertyReadOnly, message) }
    public static func invalidSignature(_ message: String) -> DBusError { .init(.invalidSignature, message) }
    public static func disconnected(_ message: String) -> DBusError { .init(.disconnected, message) }
    public static func noReply(_ message: String) -> DBusError { .init(.noReply, message) }
    public static func timedOut(_ message: String) -> DBusError { .init(.timedOut, message) }
}

extension ErrorName {
    public static let failed: ErrorName = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgs: ErrorName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let unknownObject: ErrorName = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownInterface: ErrorName = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownMethod: ErrorName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownProperty: ErrorName = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnly: ErrorName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let invalidSignature: ErrorName = "org.freedesktop.DBus.Error.InvalidSignature"
    public static let disconnected: ErrorName = "org.freedesktop.DBus.Error.Disconnected"
    public static let noReply: ErrorName = "org.freedesktop.DBus.Error.NoReply"
    public static let timedOut: ErrorName = "org.freedesktop.DBus.Error.Timeout"
    public static let accessDenied: ErrorName = "org.freedesktop.DBus.Error.AccessDenied"
    public static let serviceUnknown: ErrorName = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwner: ErrorName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    public static let limitsExceeded: ErrorName = "org.freedesktop.DBus.Error.LimitsExceeded"
}

/// Why a name, path or signature was refused before it could reach libdbus.
public struct InvalidNameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of name was being validated (`object path`, `bus name`, ...).
    public var kind: String
    /// The refused text, with control characters escaped so it prints safely.
    public var text: String
    /// The rule it broke.
    public var reason: String

    public var description: String { "invalid \(kind) \"\(text)\": \(reason)" }

    init(kind: String, text: String, reason: String) {
        self.kind = kind
        self.text = String(text.unicodeScalars.prefix(80).map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
        self.reason = reason
    }
}
