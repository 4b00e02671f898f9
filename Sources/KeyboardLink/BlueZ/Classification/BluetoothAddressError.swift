/// A text that is not a Bluetooth address, with the rule it broke.
public struct BluetoothAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being parsed (`Bluetooth address`, `device path element`).
    public var kind: String
    /// The refused text, with control characters replaced so that it prints safely.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    public var description: String {
        "invalid \(kind) \"\(text)\": \(reason) (expected an address such as 01:23:45:67:89:AB)"
    }

    init(text: String, reason: String, kind: String = "Bluetooth address") {
        self.kind = kind
        self.text = String(text.unicodeScalars.prefix(60).map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
        self.reason = reason
    }
}
