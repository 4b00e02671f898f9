/// Names vendors from their IDs: Bluetooth SIG company identifiers through libbluetooth, USB vendor IDs through
/// `usb.ids`.
public struct VendorNames: Sendable {
    /// The USB database (read lazily).
    public let usb: USBVendorNames

    /// A lookup using the `usb.ids` file at `usbIDsPath`.
    public init(usbIDsPath: String = USBVendorNames.defaultPath) {
        self.usb = USBVendorNames(path: usbIDsPath)
    }

    /// The vendor's name; nil when unknown.
    public func name(source: VendorIDSource, vendorID: UInt16) -> String? {
        switch source {
        case .bluetooth: BluetoothCompanyNames.name(for: vendorID)
        case .usb: usb.name(for: vendorID)
        }
    }

    /// The vendor's name for an identity; nil when unknown.
    public func name(for identity: DeviceIdentity) -> String? {
        name(source: identity.source, vendorID: identity.vendorID)
    }
}
