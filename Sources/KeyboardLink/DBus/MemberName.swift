/// A validated D-Bus member name: a method, signal or property.
///
/// Checked when made (``ValidatedName``): an invalid member name is a thrown ``InvalidNameError`` here instead of a libdbus
/// abort later, and a literal names a constant.
public struct MemberName: ValidatedName {
    public static let kind = "member name"

    public static func check(_ text: String) -> String? { NameValidation.checkMemberName(text) }

    /// The validated text.
    public let rawValue: String

    public init(checked: CheckedNameText) { self.rawValue = checked.text }
}
