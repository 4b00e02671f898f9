/// Names vendors from their IDs: Bluetooth SIG company identifiers through libbluetooth, USB vendor IDs through
/// `usb.ids`.
package struct VendorNames: Sendable {
    /// The USB database (read lazily).
    package let usb: USBVendorNames

    /// A lookup using the `usb.ids` file at `usbIDsPath`.
    package init(usbIDsPath: String = USBVendorNames.defaultPath) {
        self.usb = USBVendorNames(path: usbIDsPath)
    }

    /// The vendor's name; nil when unknown.
    package func name(source: VendorIDSource, vendorID: UInt16) -> String? {
        switch source {
        case .bluetooth: BluetoothCompanyNames.name(for: vendorID)
        case .usb: usb.name(for: vendorID)
        }
    }

    /// The vendor's name for an identity; nil when unknown.
    package func name(for identity: DeviceIdentity) -> String? {
        name(source: identity.source, vendorID: identity.vendorID)
    }
}
