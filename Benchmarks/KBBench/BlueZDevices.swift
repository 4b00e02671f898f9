import KeyboardLink

/// BlueZ-like `org.bluez.Device1` objects with the twenty properties BlueZ reports for a paired keyboard.
enum BlueZDevices {
    static let interface = InterfaceName("org.bluez.Device1")
    static let adapter = ObjectPath("/org/bluez/hci0")

    static let uuids: [DBusValue] = [
        "00001124-0000-1000-8000-00805f9b34fb", "00001200-0000-1000-8000-00805f9b34fb",
        "00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805f9b34fb",
        "0000180a-0000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000-00805f9b34fb",
    ].map { .string($0) }

    /// The address of device `index`: `AA:BB:CC:00:03:E7` for 999.
    static func address(_ index: Int) -> String {
        let bytes = [0xAA, 0xBB, 0xCC, (index >> 16) & 0xFF, (index >> 8) & 0xFF, index & 0xFF]
        return bytes.map { String($0, radix: 16, uppercase: true).leftPadded(2) }.joined(separator: ":")
    }

    /// Object path and declaration of device `index`.
    static func device(_ index: Int) -> (ObjectPath, DBusInterface) {
        let address = address(index)
        let path = adapter.appending(element: "dev_" + address.replacing(":", with: "_"))
        let name = "Keyboard " + String(index).leftPadded(4)
        let manufacturerData = DBusValue.dictionary(
            key: .uint16, value: .variant,
            [
                DBusDictionaryEntry(
                    key: .uint16(0x004C),
                    value: .variant(
                        .array(
                            .byte, [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, UInt8(index & 0xFF)].map { .byte($0) })))
            ])
        let properties: [(String, DBusType, DBusValue)] = [
            ("Address", .string, .string(address)),
            ("AddressType", .string, .string(index % 3 == 0 ? "random" : "public")),
            ("Name", .string, .string(name)),
            ("Alias", .string, .string(name)),
            ("Class", .uint32, .uint32(0x0025_40)),
            ("Appearance", .uint16, .uint16(0x03C1)),
            ("Icon", .string, .string("input-keyboard")),
            ("UUIDs", .array(.string), .array(.string, uuids)),
            ("Paired", .boolean, .boolean(true)),
            ("Bonded", .boolean, .boolean(true)),
            ("Trusted", .boolean, .boolean(index % 2 == 0)),
            ("Blocked", .boolean, .boolean(false)),
            ("Connected", .boolean, .boolean(index % 5 == 0)),
            ("ServicesResolved", .boolean, .boolean(index % 5 == 0)),
            ("Modalias", .string, .string("usb:v05ACp0256d0110")),
            ("RSSI", .int16, .int16(Int16(-40 - index % 50))),
            ("Adapter", .objectPath, .objectPath(adapter)),
            ("LegacyPairing", .boolean, .boolean(false)),
            ("TxPower", .int16, .int16(4)),
            ("ManufacturerData", .dictionary(key: .uint16, value: .variant), manufacturerData),
        ]
        let declaration = DBusInterface(
            interface,
            properties: properties.map { name, type, value in DBusProperty(name, type: type, initial: value) })
        return (path, declaration)
    }

    /// How many properties each device has.
    static let propertyCount = 20
}
