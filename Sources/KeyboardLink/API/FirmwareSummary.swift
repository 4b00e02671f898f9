import KeyboardLinkFirmware
import KeyboardLinkSupport

/// A keyboard's exported `Firmware` property (``FirmwareInfo/exportedProperty``) read back by a client, field by
/// field: what `kblink info` shows.
public struct FirmwareSummary: Sendable, Equatable {
    /// Device Information strings, by field; absent fields are missing.
    public var strings: [DeviceInformationField: String]
    /// Who assigned the vendor ID; nil when the identity is unknown or its source unrecognised.
    public var vendorSource: VendorIDSource?
    /// `0x046d`.
    public var vendorID: String?
    /// `0xc54d`.
    public var productID: String?
    /// `0x0100`.
    public var productVersion: String?
    /// The vendor's name.
    public var vendorName: String?
    /// When the information was read; nil when it never was.
    public var readAt: WallClockTime?
    /// What was wrong with the values read.
    public var notes: [String]

    /// Reads an exported `Firmware` property; unknown keys are ignored.
    public init(exportedProperty property: [String: String]) {
        var strings: [DeviceInformationField: String] = [:]
        for field in DeviceInformationField.allCases {
            if let value = property[field.rawValue] { strings[field] = value }
        }
        self.strings = strings
        vendorSource = property["VendorSource"].flatMap(VendorIDSource.init(rawValue:))
        vendorID = property["VendorId"]
        productID = property["ProductId"]
        productVersion = property["ProductVersion"]
        vendorName = property["VendorName"]
        readAt = FirmwareInfo.readAt(inExportedProperty: property)
        notes = FirmwareInfo.notes(inExportedProperty: property)
    }

    /// The vendor for people: `Logitech, Inc. (USB-IF 0x046d)`, `USB-IF 0x258a` without a name; nil when unknown.
    public var vendorText: String? {
        guard let vendorID else { return vendorName }
        let id = vendorSource.map { "\($0.authorityName) \(vendorID)" } ?? vendorID
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
