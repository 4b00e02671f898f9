/// A value a device sent (or BlueZ reported) that kblink cannot use; its description is the note shown to the user.
package enum FirmwareValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A PnP ID (0x2A50) that is not 7 bytes long.
    case pnpIDLength(Int)
    /// A PnP ID whose vendor-ID source byte is neither 1 nor 2.
    case pnpIDSource(UInt8)
    /// A `Modalias` that is not `bluetooth:vXXXXpXXXXdXXXX` or `usb:vXXXXpXXXXdXXXX`.
    case modalias(text: String, reason: String)
    /// A Battery Level (0x2A19) that is not one byte long.
    case batteryLevelLength(Int)
    /// A battery level above 100.
    case batteryLevelOutOfRange(UInt8)

    package var description: String {
        switch self {
        case .pnpIDLength(let count):
            return "PnP ID has \(count) byte\(count == 1 ? "" : "s"), expected 7; ignored"
        case .pnpIDSource(let byte):
            return "PnP ID vendor-ID source is \(byte), expected 1 (Bluetooth SIG) or 2 (USB-IF); ignored"
        case .modalias(let text, let reason):
            let shown = String(
                text.unicodeScalars.prefix(60).map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
            return "Modalias \"\(shown)\" is not bluetooth:vXXXXpXXXXdXXXX or usb:vXXXXpXXXXdXXXX (\(reason)); ignored"
        case .batteryLevelLength(let count):
            return "battery level has \(count) byte\(count == 1 ? "" : "s"), expected 1; ignored"
        case .batteryLevelOutOfRange(let value):
            return "battery level \(value) is out of range"
        }
    }
}
