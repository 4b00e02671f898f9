/// Who assigned a device's vendor ID: the Bluetooth SIG (company identifiers) or the USB-IF (USB vendor IDs).
///
/// The raw value is the `VendorSource` value of the `Firmware` property and the prefix of BlueZ's `Modalias`.
package enum VendorIDSource: String, CaseIterable, Hashable, Sendable, Codable {
    /// PnP ID source 1: a Bluetooth SIG company identifier.
    case bluetooth
    /// PnP ID source 2: a USB-IF vendor ID.
    case usb

    /// The source for a PnP ID source byte (1 or 2); nil for any other byte.
    package init?(pnpSource: UInt8) {
        switch pnpSource {
        case 1: self = .bluetooth
        case 2: self = .usb
        default: return nil
        }
    }

    /// The PnP ID source byte.
    package var pnpSource: UInt8 {
        switch self {
        case .bluetooth: 1
        case .usb: 2
        }
    }

    /// `Bluetooth SIG` or `USB-IF`.
    package var authorityName: String {
        switch self {
        case .bluetooth: "Bluetooth SIG"
        case .usb: "USB-IF"
        }
    }
}
