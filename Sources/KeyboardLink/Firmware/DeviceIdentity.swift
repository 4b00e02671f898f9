/// Who made a device and which product it is: the content of a PnP ID characteristic (0x2A50) or of BlueZ's
/// `Modalias` property.
package struct DeviceIdentity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Who assigned ``vendorID``.
    package var source: VendorIDSource
    /// The vendor (a Bluetooth SIG company identifier or a USB vendor ID).
    package var vendorID: UInt16
    /// The vendor's product ID.
    package var productID: UInt16
    /// The vendor's product version (often BCD, `0x0100` for 1.00).
    package var productVersion: UInt16

    /// Creates an identity.
    package init(source: VendorIDSource, vendorID: UInt16, productID: UInt16, productVersion: UInt16) {
        self.source = source
        self.vendorID = vendorID
        self.productID = productID
        self.productVersion = productVersion
    }

    /// The BlueZ `Modalias` form, `usb:v046DpC54Dd0100` (uppercase hex, as BlueZ writes it).
    package var description: String { modalias }
}
