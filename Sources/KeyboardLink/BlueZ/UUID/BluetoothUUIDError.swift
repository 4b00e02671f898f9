/// A text that is not a Bluetooth UUID, with the rule it broke.
public struct BluetoothUUIDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The refused text, with control characters replaced so that it prints safely.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    public var description: String { "invalid Bluetooth UUID \"\(text)\": \(reason)" }

    init(text: String, reason: String) {
        self.text = String(text.unicodeScalars.prefix(60).map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
        self.reason = reason
    }
}
