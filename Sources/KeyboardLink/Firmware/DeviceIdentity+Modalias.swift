extension DeviceIdentity {
    /// Parses BlueZ's `Modalias` property: `bluetooth:vXXXXpXXXXdXXXX` or `usb:vXXXXpXXXXdXXXX`, four hex digits
    /// each (either case) for vendor, product and version. The kernel's longer USB form
    /// (`usb:v046DpC52Bd1201dc00dsc00...`) is accepted too; what follows the version is ignored.
    /// - Throws: ``FirmwareValueError/modalias(text:reason:)`` saying which part is malformed.
    package init(modalias text: String) throws(FirmwareValueError) {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            throw .modalias(text: text, reason: "no \"bluetooth:\" or \"usb:\" prefix")
        }
        let prefix = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let source: VendorIDSource
        switch prefix {
        case "bluetooth": source = .bluetooth
        case "usb": source = .usb
        default: throw .modalias(text: text, reason: "unknown prefix \"\(prefix)\"")
        }
        var index = colon + 1
        func field(_ letter: Character, _ name: String) throws(FirmwareValueError) -> UInt16 {
            guard index < bytes.count, Character(Unicode.Scalar(bytes[index])).lowercased() == String(letter) else {
                throw .modalias(text: text, reason: "expected \"\(letter)\" before the \(name)")
            }
            let digits = bytes[(index + 1)...].prefix(4)
            guard digits.count == 4, digits.allSatisfy(\.isHexDigitASCII),
                let value = UInt16(String(decoding: digits, as: UTF8.self), radix: 16)
            else {
                throw .modalias(text: text, reason: "the \(name) is not 4 hex digits")
            }
            index += 5
            return value
        }
        let vendor = try field("v", "vendor ID")
        let product = try field("p", "product ID")
        let version = try field("d", "version")
        if index < bytes.count {
            let rest = bytes[index...]
            guard source == .usb, rest.starts(with: Array("dc".utf8)) else {
                throw .modalias(text: text, reason: "unexpected text after the version")
            }
        }
        self.init(source: source, vendorID: vendor, productID: product, productVersion: version)
    }

    /// The BlueZ `Modalias` form, `bluetooth:v004Cp0267d0100` or `usb:v046DpC54Dd0100` (uppercase hex).
    package var modalias: String {
        func hex(_ value: UInt16) -> String { String(value, radix: 16, uppercase: true).leftPadded(to: 4) }
        return "\(source.rawValue):v\(hex(vendorID))p\(hex(productID))d\(hex(productVersion))"
    }
}
