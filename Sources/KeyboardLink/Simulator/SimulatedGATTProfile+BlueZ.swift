import KeyboardLinkFirmware

/// What bluetoothd itself adds to a GATT database.
extension SimulatedGATTProfile {
    /// The Device Information Service bluetoothd puts in the local GATT database of every adapter when its
    /// `DeviceID` setting is left at the default: only a PnP ID, USB-IF vendor 0x1D6B (Linux Foundation), product
    /// 0x0246 (BlueZ), version 0x0542 (5.66), ahead of the services an application registers. A keyboard served
    /// by bluetoothd (a Linux board playing a keyboard) shows it beside its own.
    package static var blueZDeviceInformation: SimulatedGATTService {
        deviceInformation(
            pnpID: DeviceIdentity(source: .usb, vendorID: 0x1D6B, productID: 0x0246, productVersion: 0x0542)
                .pnpIDBytes)
    }

    /// This profile as bluetoothd would serve it: ``blueZDeviceInformation`` first, then these services.
    package func servedByBluetoothd() -> SimulatedGATTProfile {
        var copy = self
        copy.services.insert(Self.blueZDeviceInformation, at: 0)
        return copy
    }
}
