/// A Bluetooth UUID: a 128-bit value, written in short forms (`0x2A29`, 16 bits; `0x0000FE59`, 32 bits)
/// when it lies on the Bluetooth base UUID `00000000-0000-1000-8000-00805f9b34fb`.
///
/// Every form is stored as its 128-bit value, so `0x2A29` equals `00002a29-0000-1000-8000-00805f9b34fb`.
package struct BluetoothUUID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The most significant 64 bits.
    package let high: UInt64
    /// The least significant 64 bits.
    package let low: UInt64

    /// The base UUID's high half without the 32-bit short value (`0000xxxx-0000-1000`).
    static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    /// The base UUID's low half (`8000-00805f9b34fb`).
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    /// Creates a UUID from its two 64-bit halves.
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The UUID of a 16-bit assigned number, such as `0x2A29` (Manufacturer Name String).
    package init(uint16 value: UInt16) {
        self.init(uint32: UInt32(value))
    }

    /// The UUID of a 32-bit assigned number.
    package init(uint32 value: UInt32) {
        self.init(high: UInt64(value) << 32 | Self.baseHigh, low: Self.baseLow)
    }

    /// Parses `0x2A29`, `2a29`, `0x0000FE59`, `00002a29-0000-1000-8000-00805f9b34fb` or the same 32 hex digits
    /// without dashes; hex digits in either case.
    /// - Throws: ``BluetoothUUIDError`` saying which form was expected.
    package init(_ text: String) throws(BluetoothUUIDError) {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        switch digits.utf8.count {
        case 4, 8:
            guard digits.utf8.allSatisfy(\.isHexDigitASCII), let value = UInt32(digits, radix: 16) else {
                throw BluetoothUUIDError(text: text, reason: "a short UUID is 4 or 8 hex digits")
            }
            self.init(uint32: value)
        case 32, 36:
            guard digits.count == digits.utf8.count, !text.hasPrefix("0x"), !text.hasPrefix("0X") else {
                throw BluetoothUUIDError(text: text, reason: "a 128-bit UUID has no 0x prefix")
            }
            var hex = ""
            if digits.utf8.count == 36 {
                let groups = digits.split(separator: "-", omittingEmptySubsequences: false)
                guard groups.map(\.count) == [8, 4, 4, 4, 12] else {
                    throw BluetoothUUIDError(
                        text: text, reason: "a 128-bit UUID has dash-separated groups of 8, 4, 4, 4 and 12 hex digits")
                }
                hex = groups.joined()
            } else {
                hex = String(digits)
            }
            guard hex.utf8.allSatisfy(\.isHexDigitASCII), let high = UInt64(hex.prefix(16), radix: 16),
                let low = UInt64(hex.suffix(16), radix: 16)
            else {
                throw BluetoothUUIDError(text: text, reason: "a UUID holds only hex digits (0-9, a-f)")
            }
            self.init(high: high, low: low)
        default:
            throw BluetoothUUIDError(
                text: text,
                reason: "expected 4 or 8 hex digits (0x2A29) or a 128-bit UUID (00002a29-0000-1000-8000-00805f9b34fb)")
        }
    }

    /// Parses like ``init(_:)``, returning nil when the text is not a UUID.
    package init?(validating text: String) {
        guard let uuid = try? BluetoothUUID(text) else { return nil }
        self = uuid
    }

    /// The 32-bit short value when this UUID lies on the base UUID; nil otherwise.
    package var uint32Value: UInt32? {
        guard low == Self.baseLow, high & 0xFFFF_FFFF == Self.baseHigh else { return nil }
        return UInt32(truncatingIfNeeded: high >> 32)
    }

    /// The 16-bit short value when this UUID lies on the base UUID and fits 16 bits; nil otherwise.
    package var uint16Value: UInt16? {
        guard let value = uint32Value, value <= 0xFFFF else { return nil }
        return UInt16(value)
    }

    /// The canonical lowercase 128-bit form, as BlueZ writes UUIDs: `00002a29-0000-1000-8000-00805f9b34fb`.
    package var description: String {
        let hex = String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
        let chars = Array(hex)
        return String(chars[0..<8]) + "-" + String(chars[8..<12]) + "-" + String(chars[12..<16]) + "-"
            + String(chars[16..<20]) + "-" + String(chars[20..<32])
    }

    /// `0x2a29` for a 16-bit UUID, `0x0000fe59` for a 32-bit one, the 128-bit form otherwise.
    package var shortDescription: String {
        if let value = uint16Value { return "0x" + String(value, radix: 16).leftPadded(to: 4) }
        if let value = uint32Value { return "0x" + String(value, radix: 16).leftPadded(to: 8) }
        return description
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    /// Decodes from any accepted text form.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try BluetoothUUID(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes as the canonical 128-bit text.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
