/// One `/sys/class/hidraw/hidrawN` entry: its device node and what its `device/uevent` and
/// `device/report_descriptor` say.
public struct HIDRawNode: Hashable, Sendable {
    /// The entry name, such as `hidraw3`.
    public var name: String
    /// The device node to open, such as `/dev/hidraw3`.
    public var devicePath: String
    /// `HID_ID` bus: 0x0003 USB, 0x0005 Bluetooth.
    public var busType: UInt16
    /// `HID_ID` vendor.
    public var vendorID: UInt32
    /// `HID_ID` product.
    public var productID: UInt32
    /// `HID_NAME`.
    public var hidName: String
    /// `HID_UNIQ`: the Bluetooth address for Bluetooth devices, often a serial number or empty for USB.
    public var uniqueID: String
    /// The top-level application collections of the report descriptor.
    public var applicationCollections: [HIDReportDescriptor.Usage?]
    /// Why the report descriptor could not be read or parsed, if it could not.
    public var descriptorProblem: String?
    /// The report ID of VIA's raw HID reports: 0 when they are not numbered (QMK over USB), else the ID that
    /// prefixes every report written to and read from the node (a Bluetooth LE keyboard).
    public var viaReportID: UInt8 = 0

    /// Whether the node is a VIA raw HID interface (usage page 0xFF60, usage 0x61).
    public var isVIAInterface: Bool {
        applicationCollections.contains(HIDReportDescriptor.Usage.viaRawHID)
    }

    /// The `KEY=value` lines of a uevent file.
    public static func parseUevent(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }

    /// Parses `HID_ID=bbbb:vvvvvvvv:pppppppp` (hexadecimal).
    public static func parseHIDID(_ value: String) -> (bus: UInt16, vendor: UInt32, product: UInt32)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let bus = UInt16(parts[0], radix: 16), let vendor = UInt32(parts[1], radix: 16),
            let product = UInt32(parts[2], radix: 16)
        else { return nil }
        return (bus, vendor, product)
    }
}
