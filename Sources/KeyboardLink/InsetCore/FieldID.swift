/// Names a text field registered with the guardian.
package struct FieldID: RawRepresentable, Equatable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The field's name.
    package let rawValue: String

    /// Names a field.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Names a field from a literal.
    package init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The name used when a request gives only the focused field's frame.
    package static let focused: FieldID = "focused"

    package var description: String { rawValue }
}
