import KeyboardLinkSupport

/// A keyboard's `Firmware` property (`a{ss}` of `org.kblink1.Keyboard`, docs/dbus-api.md) read field by field:
/// what `kblink info` shows. The keys are the contract's: kblinkd writes them (`Service/Firmware`), clients read
/// them here.
public struct FirmwareSummary: Sendable, Equatable {
    /// The Device Information strings, keyed in the property by their raw value.
    public enum Field: String, CaseIterable, Hashable, Sendable {
        case manufacturer = "Manufacturer"
        case model = "Model"
        case serial = "Serial"
        case firmwareRevision = "FirmwareRevision"
        case hardwareRevision = "HardwareRevision"
        case softwareRevision = "SoftwareRevision"
    }

    /// Who assigned a vendor ID (the property's `VendorSource`).
    public enum VendorAuthority: String, CaseIterable, Hashable, Sendable {
        case bluetooth
        case usb

        /// The authority for people: `Bluetooth SIG`, `USB-IF`.
        public var name: String {
            switch self {
            case .bluetooth: "Bluetooth SIG"
            case .usb: "USB-IF"
            }
        }
    }

    /// The keys of the property besides the ``Field``s.
    public enum Key {
        /// `bluetooth` or `usb` (``VendorAuthority``).
        public static let vendorSource = "VendorSource"
        /// `0x` and four lowercase hex digits, like the two below: fixed width so that they sort and compare as
        /// text.
        public static let vendorID = "VendorId"
        public static let productID = "ProductId"
        public static let productVersion = "ProductVersion"
        /// The vendor's name.
        public static let vendorName = "VendorName"
        /// When the values were read: ISO 8601 in UTC, to the second (`2026-11-29T12:18:42Z`).
        public static let readAt = "ReadAt"
        /// What was wrong with the values read, one note per line; absent when nothing was.
        public static let notes = "Notes"
    }

    /// Device Information strings, by field; absent fields are missing.
    public var strings: [Field: String]
    /// Who assigned the vendor ID; nil when the identity is unknown or its source unrecognised.
    public var vendorSource: VendorAuthority?
    /// `0x046d`.
    public var vendorID: String?
    /// `0xc54d`.
    public var productID: String?
    /// `0x0100`.
    public var productVersion: String?
    /// The vendor's name.
    public var vendorName: String?
    /// When the information was read; nil when it never was (or the value is malformed).
    public var readAt: WallClockTime?
    /// What was wrong with the values read, in order.
    public var notes: [String]

    /// Reads a `Firmware` property; unknown keys are ignored.
    public init(exportedProperty property: [String: String]) {
        var strings: [Field: String] = [:]
        for field in Field.allCases {
            if let value = property[field.rawValue] { strings[field] = value }
        }
        self.strings = strings
        vendorSource = property[Key.vendorSource].flatMap(VendorAuthority.init(rawValue:))
        vendorID = property[Key.vendorID]
        productID = property[Key.productID]
        productVersion = property[Key.productVersion]
        vendorName = property[Key.vendorName]
        readAt = property[Key.readAt].flatMap(WallClockTime.init(iso8601:))
        notes = property[Key.notes].map { $0.split(separator: "\n").map(String.init) } ?? []
    }

    /// The vendor for people: `Logitech, Inc. (USB-IF 0x046d)`, `USB-IF 0x258a` without a name; nil when unknown.
    public var vendorText: String? {
        guard let vendorID else { return vendorName }
        let id = vendorSource.map { "\($0.name) \(vendorID)" } ?? vendorID
        return vendorName.map { "\($0) (\(id))" } ?? id
    }

    /// The product for people: `0xc54d, version 0x0100`; nil when unknown.
    public var productText: String? {
        guard let productID else { return nil }
        return productVersion.map { "\(productID), version \($0)" } ?? productID
    }

    /// When the information was read, for people: `3 minutes ago (2026-11-29T12:18:42Z)`, or nil when never.
    public func readText(now: WallClockTime) -> String? {
        readAt.map { "\(FirmwareAge.text(readAt: $0, now: now)) (\($0.iso8601))" }
    }
}
