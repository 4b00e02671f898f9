/// The assigned numbers kblink uses (Bluetooth SIG "Assigned Numbers": services, characteristics, descriptors).
extension BluetoothUUID {
    /// 0x1124: Human Interface Device service (classic Bluetooth HID).
    package static let humanInterfaceDevice = BluetoothUUID(uint16: 0x1124)
    /// 0x1812: HID over GATT service (Bluetooth LE keyboards, mice...).
    package static let hidOverGATT = BluetoothUUID(uint16: 0x1812)
    /// 0x180A: Device Information service.
    package static let deviceInformation = BluetoothUUID(uint16: 0x180A)
    /// 0x180F: Battery service.
    package static let batteryService = BluetoothUUID(uint16: 0x180F)

    /// 0x2A29: Manufacturer Name String.
    package static let manufacturerName = BluetoothUUID(uint16: 0x2A29)
    /// 0x2A24: Model Number String.
    package static let modelNumber = BluetoothUUID(uint16: 0x2A24)
    /// 0x2A25: Serial Number String.
    package static let serialNumber = BluetoothUUID(uint16: 0x2A25)
    /// 0x2A26: Firmware Revision String.
    package static let firmwareRevision = BluetoothUUID(uint16: 0x2A26)
    /// 0x2A27: Hardware Revision String.
    package static let hardwareRevision = BluetoothUUID(uint16: 0x2A27)
    /// 0x2A28: Software Revision String.
    package static let softwareRevision = BluetoothUUID(uint16: 0x2A28)
    /// 0x2A50: PnP ID (vendor-ID source, vendor, product, version).
    package static let pnpID = BluetoothUUID(uint16: 0x2A50)
    /// 0x2A19: Battery Level (one byte, 0-100 %).
    package static let batteryLevel = BluetoothUUID(uint16: 0x2A19)

    /// 0x2901: Characteristic User Description descriptor (a UTF-8 label such as "Left").
    package static let characteristicUserDescription = BluetoothUUID(uint16: 0x2901)
}
