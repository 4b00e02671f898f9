import KeyboardLinkDBus

/// A snapshot of one `org.bluez.GattDescriptor1` object.
package struct GATTDescriptor: Sendable, Hashable {
    /// The object path, such as `.../service000a/char000b/desc000d`.
    package var path: ObjectPath
    /// The descriptor's UUID (`0x2901` Characteristic User Description, ...).
    package var uuid: BluetoothUUID
    /// The characteristic it describes.
    package var characteristic: ObjectPath
    /// The ATT handle, when BlueZ reports it.
    package var handle: UInt16?

    /// Creates a descriptor.
    package init(path: ObjectPath, uuid: BluetoothUUID, characteristic: ObjectPath, handle: UInt16? = nil) {
        self.path = path
        self.uuid = uuid
        self.characteristic = characteristic
        self.handle = handle
    }

    /// Reads a descriptor from its `GattDescriptor1` properties; nil when the UUID is missing or malformed.
    /// A missing `Characteristic` is taken from the path (the descriptor's parent).
    package init?(path: ObjectPath, properties: [String: DBusValue]) {
        guard let uuid = properties["UUID"]?.stringValue.flatMap(BluetoothUUID.init(validating:)),
            let characteristic = properties["Characteristic"]?.objectPathValue ?? path.parent
        else { return nil }
        self.init(
            path: path, uuid: uuid, characteristic: characteristic,
            handle: properties["Handle"]?.integerValue.flatMap { UInt16(exactly: $0) })
    }
}
