import KBlinkAPI
import KeyboardLinkFirmware
import KeyboardLinkSupport

extension FirmwareInfo {
    /// The `Firmware` property (`a{ss}`) as kblinkd exports it, in the contract's keys (``FirmwareSummary``, which
    /// reads it back): the Device Information strings and the identity that are known, `ReadAt` (when the values
    /// were read) and `Notes` (what was wrong with them, one per line; absent when nothing was).
    package var exportedProperty: [String: String] {
        var result = firmwareProperty
        result[FirmwareSummary.Key.readAt] = readAt.iso8601
        if !notes.isEmpty {
            result[FirmwareSummary.Key.notes] =
                notes.map { String($0.map { $0 == "\n" ? " " : $0 }) }.joined(separator: "\n")
        }
        return result
    }

    /// The strings and identity of ``exportedProperty``: only the keys whose value is known. Identity numbers are
    /// `0x` and four lowercase hex digits (`0x046d`), the form `lsusb` prints without its prefix.
    package var firmwareProperty: [String: String] {
        var result: [String: String] = [:]
        for field in DeviceInformationField.allCases {
            if let value = self[field] { result[field.summaryField.rawValue] = value }
        }
        if let identity {
            result[FirmwareSummary.Key.vendorSource] = identity.source.authority.rawValue
            result[FirmwareSummary.Key.vendorID] = identity.vendorID.hexID
            result[FirmwareSummary.Key.productID] = identity.productID.hexID
            result[FirmwareSummary.Key.productVersion] = identity.productVersion.hexID
        }
        if let vendorName { result[FirmwareSummary.Key.vendorName] = vendorName }
        return result
    }

    /// The `Battery` property (`a(sy)`): part name and percentage, in part order; empty when unknown.
    package var batteryProperty: [BatteryReading] { batteries }
}

extension DeviceInformationField {
    /// The field as the contract names it in the `Firmware` property.
    package var summaryField: FirmwareSummary.Field {
        switch self {
        case .manufacturer: .manufacturer
        case .model: .model
        case .serial: .serial
        case .firmwareRevision: .firmwareRevision
        case .hardwareRevision: .hardwareRevision
        case .softwareRevision: .softwareRevision
        }
    }
}

extension VendorIDSource {
    /// The source as the contract names it in the `Firmware` property.
    package var authority: FirmwareSummary.VendorAuthority {
        switch self {
        case .bluetooth: .bluetooth
        case .usb: .usb
        }
    }
}
