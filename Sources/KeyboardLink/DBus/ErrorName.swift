/// A validated D-Bus error name: two or more dot-separated elements.
///
/// Checked when made (``ValidatedName``): an invalid error name is a thrown ``InvalidNameError`` here instead of a libdbus
/// abort later, and a literal names a constant.
public struct ErrorName: ValidatedName {
    public static let kind = "error name"

    public static func check(_ text: String) -> String? { NameValidation.checkDottedName(text) }

    /// The validated text.
    public let rawValue: String

    public init(checked: CheckedNameText) { self.rawValue = checked.text }
}
