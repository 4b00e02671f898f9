/// A capability bitmap text that does not parse.
package struct CapabilityBitmapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The refused text (at most 80 characters).
    package var text: String
    /// What is wrong with it.
    package var reason: String

    package var description: String { "invalid capability bitmap \"\(text)\": \(reason)" }

    init(text: String, reason: String) {
        self.text = String(text.unicodeScalars.prefix(80).map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
        self.reason = reason
    }
}
