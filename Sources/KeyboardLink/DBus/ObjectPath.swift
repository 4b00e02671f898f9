/// A validated D-Bus object path.
///
/// Creating one checks the D-Bus specification's rules in Swift, so an invalid object path is a thrown
/// InvalidNameError here instead of a libdbus abort later.
public struct ObjectPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The validated text.
    public let rawValue: String

    /// Validates `rawValue` as a object path.
    /// - Throws: InvalidNameError naming the broken rule.
    public init(_ rawValue: String) throws(InvalidNameError) {
        if let reason = NameValidation.checkObjectPath(rawValue) {
            throw InvalidNameError(kind: "object path", text: rawValue, reason: reason)
        }
        self.rawValue = rawValue
    }

    /// Validates `rawValue`, returning nil when it is not a object path.
    public init?(validating rawValue: String) {
        guard NameValidation.checkObjectPath(rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// For literals and text that libdbus already validated; checked always (a failure is a programming error).
    package init(trusted rawValue: String) {
        precondition(NameValidation.checkObjectPath(rawValue) == nil, "invalid object path literal \(rawValue)")
        self.rawValue = rawValue
    }

    /// For text libdbus has already validated (names in received messages): no second check.
    @usableFromInline
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension ObjectPath {
    /// The root path `/`.
    public static let root = ObjectPath(trusted: "/")

    /// Appends one element, escaping every byte outside `[A-Za-z0-9]` as `_XX` (hex), like systemd's
    /// `sd_bus_path_encode`, so that any text (an address, a name) makes a valid path.
    public func appending(escaped element: String) -> ObjectPath {
        var escaped = ""
        if element.isEmpty { escaped = "_" }
        for byte in element.utf8 {
            if (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += "_" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return appending(element: escaped)
    }

    /// Appends an element that is already a valid path element.
    /// - Precondition: `element` matches `[A-Za-z0-9_]+`.
    public func appending(element: String) -> ObjectPath {
        let text = rawValue == "/" ? "/" + element : rawValue + "/" + element
        return ObjectPath(trusted: text)
    }

    /// Whether `self` equals `ancestor` or lies below it.
    public func isDescendant(of ancestor: ObjectPath) -> Bool {
        if ancestor.rawValue == "/" { return true }
        return rawValue == ancestor.rawValue || rawValue.hasPrefix(ancestor.rawValue + "/")
    }

    /// The path without its last element; nil for `/`.
    public var parent: ObjectPath? {
        guard rawValue != "/" else { return nil }
        guard let slash = rawValue.lastIndex(of: "/") else { return nil }
        if slash == rawValue.startIndex { return .root }
        return ObjectPath(trusted: String(rawValue[..<slash]))
    }

    /// The last element; empty for `/`.
    public var lastElement: String {
        guard rawValue != "/", let slash = rawValue.lastIndex(of: "/") else { return "" }
        return String(rawValue[rawValue.index(after: slash)...])
    }
}
