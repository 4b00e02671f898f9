/// Which screen a window or a keyboard event belongs to (iOS names the screen in the notification's object).
///
/// An opaque name: two identities are the same screen exactly when their texts are equal.
public struct ScreenID: RawRepresentable, Equatable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The screen's name.
    public let rawValue: String

    /// Names a screen.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Names a screen from a literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The built-in screen, the default for windows and events.
    public static let main: ScreenID = "main"

    public var description: String { rawValue }
}
