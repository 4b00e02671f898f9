/// A text that is not a Bluetooth UUID, with the rule it broke.
package struct BluetoothUUIDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The refused text, with control characters replaced so that it prints safely.
    package var text: String
    /// What is wrong with it.
    package var reason: String

    package var description: String { "invalid Bluetooth UUID \"\(text)\": \(reason)" }

    init(text: String, reason: String) {
        self.text = String(text.unicodeScalars.prefix(60).map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
        self.reason = reason
    }
}
