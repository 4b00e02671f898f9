import KeyboardLinkFirmware

extension FirmwareInfo {
    /// The `Firmware` property (`a{ss}`) of `org.kblink1.Keyboard`: only the keys whose value is known.
    ///
    /// Keys: `Manufacturer`, `Model`, `Serial`, `FirmwareRevision`, `HardwareRevision`, `SoftwareRevision`
    /// (text as read), `VendorSource` (`bluetooth` or `usb`), `VendorId`, `ProductId`, `ProductVersion`
    /// (`0x` and four lowercase hex digits, e.g. `0x046d`: fixed width so that they sort and compare as text, the
    /// form `lsusb` prints without its prefix) and `VendorName`.
    public var firmwareProperty: [String: String] {
        var result: [String: String] = [:]
        for field in DeviceInformationField.allCases {
            if let value = self[field] { result[field.rawValue] = value }
        }
        if let identity {
            result["VendorSource"] = identity.source.rawValue
            result["VendorId"] = identity.vendorID.hexID
            result["ProductId"] = identity.productID.hexID
            result["ProductVersion"] = identity.productVersion.hexID
        }
        if let vendorName { result["VendorName"] = vendorName }
        return result
    }

    /// The `Battery` property (`a(sy)`): part name and percentage, in part order; empty when unknown.
    public var batteryProperty: [BatteryReading] { batteries }
}
