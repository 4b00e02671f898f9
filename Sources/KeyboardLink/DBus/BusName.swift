/// A validated D-Bus bus name: a unique name (`:1.42`) or a well-known name (`org.kblink1`).
///
/// Checked when made (``ValidatedName``): an invalid bus name is a thrown ``InvalidNameError`` here instead of a libdbus
/// abort later, and a literal names a constant.
public struct BusName: ValidatedName {
    public static let kind = "bus name"

    public static func check(_ text: String) -> String? { NameValidation.checkBusName(text) }

    /// The validated text.
    public let rawValue: String

    public init(checked: CheckedNameText) { self.rawValue = checked.text }
}

extension BusName {
    /// The message bus itself.
    public static let messageBus: BusName = "org.freedesktop.DBus"
    /// Whether this is a unique connection name such as `:1.42`.
    public var isUnique: Bool { rawValue.hasPrefix(":") }
}
