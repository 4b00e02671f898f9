/// A validated D-Bus interface name: two or more dot-separated elements.
///
/// Checked when made (``ValidatedName``): an invalid interface name is a thrown ``InvalidNameError`` here instead of a libdbus
/// abort later, and a literal names a constant.
public struct InterfaceName: ValidatedName {
    public static let kind = "interface name"

    public static func check(_ text: String) -> String? { NameValidation.checkDottedName(text) }

    /// The validated text.
    public let rawValue: String

    public init(checked: CheckedNameText) { self.rawValue = checked.text }
}

extension InterfaceName {
    public static let dbus: InterfaceName = "org.freedesktop.DBus"
    public static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    public static let introspectable: InterfaceName = "org.freedesktop.DBus.Introspectable"
    public static let peer: InterfaceName = "org.freedesktop.DBus.Peer"
    public static let objectManager: InterfaceName = "org.freedesktop.DBus.ObjectManager"
}
