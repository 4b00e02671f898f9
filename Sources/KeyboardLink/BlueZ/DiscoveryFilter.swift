import KeyboardLinkDBus

/// What a discovery session looks for: the argument of `org.bluez.Adapter1.SetDiscoveryFilter` (BlueZ's
/// `org.bluez.Adapter.rst`), typed so that a key cannot be misspelled nor a value given the wrong type.
package struct DiscoveryFilter: Sendable, Equatable {
    /// Which radios BlueZ scans with.
    package enum Transport: String, Sendable, Equatable {
        /// Classic and LE, as the adapter supports (interleaved).
        case auto
        /// Classic Bluetooth (BR/EDR) only.
        case bredr
        /// Bluetooth LE only.
        case le
    }

    /// Devices that advertise (or, for classic, offer) one of these services; empty: any device.
    package var uuids: [BluetoothUUID]
    /// The radios to scan with.
    package var transport: Transport
    /// The weakest signal (dBm) a device is reported at; nil: any.
    package var rssi: Int16?
    /// Whether a device is reported again at each advertisement, not only when its data changes; nil: BlueZ's default.
    package var duplicateData: Bool?

    /// A filter as given.
    package init(
        uuids: [BluetoothUUID] = [], transport: Transport = .auto, rssi: Int16? = nil, duplicateData: Bool? = nil
    ) {
        self.uuids = uuids
        self.transport = transport
        self.rssi = rssi
        self.duplicateData = duplicateData
    }

    /// Keyboards: HID (classic) and HID over GATT (LE), on both radios.
    package static let keyboards = DiscoveryFilter(uuids: [.humanInterfaceDevice, .hidOverGATT], transport: .auto)

    /// The `a{sv}` argument of `SetDiscoveryFilter`: only the keys set.
    package var dbusValue: DBusValue {
        var entries: [DBusDictionaryEntry] = []
        if !uuids.isEmpty {
            entries.append(
                DBusDictionaryEntry(
                    key: .string("UUIDs"), value: .variant(.array(.string, uuids.map { .string($0.description) }))))
        }
        entries.append(DBusDictionaryEntry(key: .string("Transport"), value: .variant(.string(transport.rawValue))))
        if let rssi { entries.append(DBusDictionaryEntry(key: .string("RSSI"), value: .variant(.int16(rssi)))) }
        if let duplicateData {
            entries.append(DBusDictionaryEntry(key: .string("DuplicateData"), value: .variant(.boolean(duplicateData))))
        }
        return .dictionary(key: .string, value: .variant, entries)
    }
}
