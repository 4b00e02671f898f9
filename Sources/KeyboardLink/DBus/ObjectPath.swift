/// A validated D-Bus object path: `/`, or `/`-separated elements of `[A-Za-z0-9_]`.
///
/// Checked when made (``ValidatedName``): an invalid object path is a thrown ``InvalidNameError`` here instead of a libdbus
/// abort later, and a literal names a constant.
public struct ObjectPath: ValidatedName {
    public static let kind = "object path"

    public static func check(_ text: String) -> String? { NameValidation.checkObjectPath(text) }

    /// The validated text.
    public let rawValue: String

    public init(checked: CheckedNameText) { self.rawValue = checked.text }
}

extension ObjectPath {
    /// The root path `/`.
    public static let root: ObjectPath = "/"

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
        return ObjectPath(constant: text)
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
        return ObjectPath(unchecked: String(rawValue[..<slash]))
    }

    /// The last element; empty for `/`.
    public var lastElement: String {
        guard rawValue != "/", let slash = rawValue.lastIndex(of: "/") else { return "" }
        return String(rawValue[rawValue.index(after: slash)...])
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
