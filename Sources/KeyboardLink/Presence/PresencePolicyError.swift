/// A presence policy value that is not one of the accepted ones.
package struct PresencePolicyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The refused text (at most 60 characters).
    package var text: String

    package var description: String {
        "unknown hardware keyboard policy \"\(text)\": use external (Bluetooth and USB keyboards, the default), "
            + "any (built-in keyboards too) or bluetooth (Bluetooth keyboards only)"
    }

    init(text: String) {
        self.text = String(text.unicodeScalars.prefix(60).map { $0.isASCII && $0.value < 0x20 ? "?" : Character($0) })
    }
}
