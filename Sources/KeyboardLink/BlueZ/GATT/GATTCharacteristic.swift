import KeyboardLinkDBus

/// A snapshot of one `org.bluez.GattCharacteristic1` object.
package struct GATTCharacteristic: Sendable, Hashable {
    /// The object path, such as `.../service000a/char000b`.
    package var path: ObjectPath
    /// The characteristic's UUID (`0x2A29` Manufacturer Name String, ...).
    package var uuid: BluetoothUUID
    /// The service it belongs to.
    package var service: ObjectPath
    /// What it allows.
    package var flags: GATTCharacteristicFlags
    /// The ATT MTU of the link, when BlueZ reports it (a single read returns at most `MTU - 1` bytes).
    package var mtu: UInt16?
    /// The ATT handle, when BlueZ reports it.
    package var handle: UInt16?
    /// Notifications or indications are on (for some client).
    package var isNotifying: Bool

    /// Creates a characteristic.
    package init(
        path: ObjectPath, uuid: BluetoothUUID, service: ObjectPath, flags: GATTCharacteristicFlags,
        mtu: UInt16? = nil, handle: UInt16? = nil, isNotifying: Bool = false
    ) {
        self.path = path
        self.uuid = uuid
        self.service = service
        self.flags = flags
        self.mtu = mtu
        self.handle = handle
        self.isNotifying = isNotifying
    }

    /// Reads a characteristic from its `GattCharacteristic1` properties; nil when the UUID is missing or
    /// malformed. A missing `Service` is taken from the path (the characteristic's parent).
    package init?(path: ObjectPath, properties: [String: DBusValue]) {
        guard let uuid = properties["UUID"]?.stringValue.flatMap(BluetoothUUID.init(validating:)),
            let service = properties["Service"]?.objectPathValue ?? path.parent
        else { return nil }
        self.init(
            path: path, uuid: uuid, service: service,
            flags: GATTCharacteristicFlags(
                bluezNames: properties["Flags"]?.arrayValue?.compactMap(\.stringValue) ?? []),
            mtu: properties["MTU"]?.integerValue.flatMap { UInt16(exactly: $0) },
            handle: properties["Handle"]?.integerValue.flatMap { UInt16(exactly: $0) },
            isNotifying: properties["Notifying"]?.boolValue ?? false)
    }
}
