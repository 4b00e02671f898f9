/// One `/sys/class/hidraw/hidrawN` entry: its device node and what its `dev`, `device/uevent` and
/// `device/report_descriptor` say.
package struct HIDRawNode: Hashable, Sendable {
    /// The entry name, such as `hidraw3` (always `hidraw` then digits: discovery skips any other name).
    package var name: String
    /// The device node to open, such as `/dev/hidraw3`.
    package var devicePath: String
    /// `HID_ID` bus: 0x0003 USB, 0x0005 Bluetooth.
    package var busType: UInt16
    /// `HID_ID` vendor.
    package var vendorID: UInt32
    /// `HID_ID` product.
    package var productID: UInt32
    /// `HID_NAME`.
    package var hidName: String
    /// `HID_UNIQ`: the Bluetooth address for Bluetooth devices, often a serial number or empty for USB.
    package var uniqueID: String
    /// `HID_PHYS`: the adapter's address for Bluetooth devices (a USB path such as `usb-0000:00:14.0-1/input2`
    /// for USB ones).
    package var physicalPath: String = ""
    /// The major and minor number in the entry's `dev` file: what `devicePath` must be when it is opened. nil
    /// when `dev` is missing or not `major:minor`; such a node is never opened.
    package var deviceNumber: DeviceNumber?
    /// The top-level application collections of the report descriptor.
    package var applicationCollections: [HIDReportDescriptor.Usage?]
    /// Why the report descriptor could not be read or parsed, if it could not.
    package var descriptorProblem: String?
    /// The report ID of VIA's raw HID reports: 0 when they are not numbered (QMK over USB), else the ID that
    /// prefixes every report written to and read from the node (a Bluetooth LE keyboard).
    package var viaReportID: UInt8 = 0

    /// The bus number of Bluetooth in `HID_ID` (the kernel's `BUS_BLUETOOTH`).
    package static let bluetoothBus: UInt16 = 0x0005

    /// A character device's major and minor number.
    package struct DeviceNumber: Hashable, Sendable, CustomStringConvertible {
        /// The major number (the driver: hidraw's is assigned at boot).
        package var major: UInt32
        /// The minor number (the node).
        package var minor: UInt32

        /// Creates a device number.
        package init(major: UInt32, minor: UInt32) {
            self.major = major
            self.minor = minor
        }

        /// Splits a `dev_t` as glibc's `gnu_dev_major` and `gnu_dev_minor` do.
        package init(deviceID: UInt64) {
            major = UInt32(truncatingIfNeeded: ((deviceID >> 8) & 0xFFF) | ((deviceID >> 32) & ~0xFFF))
            minor = UInt32(truncatingIfNeeded: (deviceID & 0xFF) | ((deviceID >> 12) & ~0xFF))
        }

        /// Parses a sysfs `dev` file, `major:minor` in decimal and a newline; nil for anything else.
        package init?(sysfsText text: String) {
            var line = Substring(text)
            if line.last == "\n" { line = line.dropLast() }
            let parts = line.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2,
                parts.allSatisfy({ !$0.isEmpty && $0.count <= 10 && $0.allSatisfy(\.isASCIIDigit) }),
                let major = UInt32(parts[0]), let minor = UInt32(parts[1])
            else { return nil }
            self.init(major: major, minor: minor)
        }

        /// `major:minor`.
        package var description: String { "\(major):\(minor)" }
    }

    /// Whether the node is a VIA raw HID interface (usage page 0xFF60, usage 0x61).
    package var isVIAInterface: Bool {
        applicationCollections.contains(HIDReportDescriptor.Usage.viaRawHID)
    }

    /// Whether `name` is a hidraw entry name, `hidraw` then 1 to 9 decimal digits: the only names discovery turns
    /// into a path under `/dev`.
    package static func isNodeName(_ name: String) -> Bool {
        guard name.hasPrefix("hidraw") else { return false }
        let digits = name.utf8.dropFirst(6)
        return (1...9).contains(digits.count)
            && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The `KEY=value` lines of a uevent file.
    package static func parseUevent(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }

    /// Parses `HID_ID=bbbb:vvvvvvvv:pppppppp` (hexadecimal).
    package static func parseHIDID(_ value: String) -> (bus: UInt16, vendor: UInt32, product: UInt32)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let bus = UInt16(parts[0], radix: 16), let vendor = UInt32(parts[1], radix: 16),
            let product = UInt32(parts[2], radix: 16)
        else { return nil }
        return (bus, vendor, product)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
