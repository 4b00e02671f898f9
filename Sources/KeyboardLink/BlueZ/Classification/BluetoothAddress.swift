import KeyboardLinkDBus

/// A validated Bluetooth device address (`BD_ADDR`), such as `C8:7F:54:0A:1B:2C`.
///
/// Input is accepted in either case; the canonical text is uppercase, as BlueZ prints it in `Device1.Address`.
/// The kernel prints the same address in lowercase in `/proc/bus/input/devices` (`U: Uniq=`), so compare
/// addresses as values of this type, never as text.
public struct BluetoothAddress: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The six bytes, most significant first (the order in which the address is written).
    public let bytes: [UInt8]

    /// Parses `AA:BB:CC:DD:EE:FF` (hex digits in either case).
    /// - Throws: ``BluetoothAddressError`` saying what is wrong with the text.
    public init(_ text: String) throws(BluetoothAddressError) {
        self.bytes = try Self.parse(text, separator: ":", kind: "Bluetooth address")
    }

    /// Parses `AA:BB:CC:DD:EE:FF`, returning nil when the text is not an address.
    public init?(validating text: String) {
        guard let bytes = try? Self.parse(text, separator: ":", kind: "Bluetooth address") else { return nil }
        self.bytes = bytes
    }

    /// Creates an address from its six bytes, most significant first.
    /// - Throws: ``BluetoothAddressError`` when `bytes` does not hold exactly six bytes.
    public init(bytes: [UInt8]) throws(BluetoothAddressError) {
        guard bytes.count == 6 else {
            throw BluetoothAddressError(
                text: bytes.map { String($0, radix: 16) }.joined(separator: " "),
                reason: "an address has 6 bytes, got \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// Parses a BlueZ device object path element, `dev_AA_BB_CC_DD_EE_FF`.
    /// - Throws: ``BluetoothAddressError`` when the element is not of that form.
    public init(pathElement: String) throws(BluetoothAddressError) {
        guard pathElement.hasPrefix("dev_") else {
            throw BluetoothAddressError(
                text: pathElement, reason: "a BlueZ device path element starts with \"dev_\"",
                kind: "device path element")
        }
        let rest = String(pathElement.dropFirst(4))
        self.bytes = try Self.parse(rest, separator: "_", kind: "device path element", original: pathElement)
    }

    /// Parses the address out of a BlueZ device object path such as `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`
    /// (its last element).
    /// - Throws: ``BluetoothAddressError`` when the last element is not `dev_` followed by an address.
    public init(devicePath: ObjectPath) throws(BluetoothAddressError) {
        try self.init(pathElement: devicePath.lastElement)
    }

    /// The canonical text, `AA:BB:CC:DD:EE:FF` in uppercase.
    public var description: String { formatted(separator: ":") }

    /// The BlueZ object path element for this device, `dev_AA_BB_CC_DD_EE_FF`.
    public var pathElement: String { "dev_" + formatted(separator: "_") }

    /// The device's object path below an adapter path such as `/org/bluez/hci0`.
    public func devicePath(adapter: ObjectPath) -> ObjectPath {
        adapter.appending(element: pathElement)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    /// Decodes from the canonical text, so cache files hold `"AA:BB:CC:DD:EE:FF"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try BluetoothAddress(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes as the canonical text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private func formatted(separator: String) -> String {
        bytes.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + hex : hex
        }.joined(separator: separator)
    }

    private static func parse(
        _ text: String, separator: Character, kind: String, original: String? = nil
    ) throws(BluetoothAddressError) -> [UInt8] {
        let shown = original ?? text
        let expected = ["XX", "XX", "XX", "XX", "XX", "XX"].joined(separator: String(separator))
        let groups = text.split(separator: separator, omittingEmptySubsequences: false)
        guard groups.count == 6 else {
            throw BluetoothAddressError(
                text: shown, reason: "expected 6 groups of 2 hex digits like \(expected), got \(groups.count)",
                kind: kind)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(6)
        for (index, group) in groups.enumerated() {
            guard group.utf8.count == 2, group.utf8.allSatisfy(\.isHexDigitASCII), let byte = UInt8(group, radix: 16)
            else {
                throw BluetoothAddressError(
                    text: shown, reason: "group \(index + 1) \"\(group)\" is not 2 hex digits", kind: kind)
            }
            bytes.append(byte)
        }
        return bytes
    }
}

extension UInt8 {
    /// Whether this byte is an ASCII hex digit (`0-9`, `a-f`, `A-F`).
    package var isHexDigitASCII: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66)
    }
}
