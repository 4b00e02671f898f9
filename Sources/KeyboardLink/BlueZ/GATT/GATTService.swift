import KeyboardLinkDBus

/// A snapshot of one `org.bluez.GattService1` object below a device.
package struct GATTService: Sendable, Hashable {
    /// The object path, such as `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF/service000a`.
    package var path: ObjectPath
    /// The service's UUID (`0x180A` Device Information, `0x180F` Battery, ...).
    package var uuid: BluetoothUUID
    /// A primary service (not only included by another).
    package var isPrimary: Bool
    /// The device the service belongs to.
    package var device: ObjectPath?
    /// The ATT handle, when BlueZ reports it.
    package var handle: UInt16?

    /// Creates a service.
    package init(path: ObjectPath, uuid: BluetoothUUID, isPrimary: Bool = true, device: ObjectPath?, handle: UInt16?) {
        self.path = path
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.device = device
        self.handle = handle
    }

    /// Reads a service from its `GattService1` properties; nil when the UUID is missing or malformed.
    package init?(path: ObjectPath, properties: [String: DBusValue]) {
        guard let uuid = properties["UUID"]?.stringValue.flatMap(BluetoothUUID.init(validating:)) else { return nil }
        self.init(
            path: path, uuid: uuid, isPrimary: properties["Primary"]?.boolValue ?? true,
            device: properties["Device"]?.objectPathValue,
            handle: properties["Handle"]?.integerValue.flatMap { UInt16(exactly: $0) })
    }
}

extension DBusValue {
    /// The path of an object path value (looking through variants).
    var objectPathValue: ObjectPath? {
        if case .objectPath(let path) = unwrapped { return path }
        return nil
    }

    /// The bytes of an `ay` value (looking through variants); nil for any other type.
    var byteArrayValue: [UInt8]? {
        guard case .array(let element, let values) = unwrapped, element == .byte else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count)
        for value in values {
            guard case .byte(let byte) = value else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// An `ay` value.
    package static func bytes(_ bytes: [UInt8]) -> DBusValue {
        .array(.byte, bytes.map { .byte($0) })
    }
}
