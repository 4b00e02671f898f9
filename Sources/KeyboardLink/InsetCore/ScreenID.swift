/// Which screen a window or a keyboard event belongs to (iOS names the screen in the notification's object).
///
/// An opaque name: two identities are the same screen exactly when their texts are equal.
package struct ScreenID: RawRepresentable, Equatable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The screen's name.
    package let rawValue: String

    /// Names a screen.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Names a screen from a literal.
    package init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The built-in screen, the default for windows and events.
    package static let main: ScreenID = "main"

    package var description: String { rawValue }
}
