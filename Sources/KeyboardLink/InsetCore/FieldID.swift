/// Names a text field registered with the guardian.
public struct FieldID: RawRepresentable, Equatable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The field's name.
    public let rawValue: String

    /// Names a field.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Names a field from a literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The name used when a request gives only the focused field's frame.
    public static let focused: FieldID = "focused"

    public var description: String { rawValue }
}
