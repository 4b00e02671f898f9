import KeyboardLinkDBus

/// A snapshot of one `org.bluez.Device1` object and the interfaces beside it.
package struct BlueZDevice: Sendable, Equatable {
    package var path: ObjectPath
    package var adapter: ObjectPath?
    /// `AA:BB:CC:DD:EE:FF`, as BlueZ reports it.
    package var address: String
    package var addressType: String?
    package var name: String?
    package var alias: String
    package var classOfDevice: UInt32?
    package var appearance: UInt16?
    package var icon: String?
    package var uuids: [String]
    package var paired: Bool
    package var bonded: Bool
    package var trusted: Bool
    package var blocked: Bool
    package var connected: Bool
    package var servicesResolved: Bool
    package var modalias: String?
    package var rssi: Int16?
    /// `org.bluez.Battery1.Percentage`, when BlueZ exposes it.
    package var batteryPercentage: UInt8?

    /// Reads a device from its interfaces' properties; nil when `Device1` is missing or has no address.
    package init?(path: ObjectPath, interfaces: [String: [String: DBusValue]]) {
        guard let device = interfaces[BlueZ.deviceInterface.rawValue],
            let address = device["Address"]?.stringValue
        else { return nil }
        self.path = path
        self.address = address
        adapter = device["Adapter"].flatMap { value in
            if case .objectPath(let path) = value.unwrapped { return path }
            return nil
        }
        addressType = device["AddressType"]?.stringValue
        name = device["Name"]?.stringValue
        alias = device["Alias"]?.stringValue ?? name ?? address
        classOfDevice = device["Class"]?.integerValue.flatMap { UInt32(exactly: $0) }
        appearance = device["Appearance"]?.integerValue.flatMap { UInt16(exactly: $0) }
        icon = device["Icon"]?.stringValue
        uuids = device["UUIDs"]?.arrayValue?.compactMap(\.stringValue) ?? []
        paired = device["Paired"]?.boolValue ?? false
        bonded = device["Bonded"]?.boolValue ?? paired
        trusted = device["Trusted"]?.boolValue ?? false
        blocked = device["Blocked"]?.boolValue ?? false
        connected = device["Connected"]?.boolValue ?? false
        servicesResolved = device["ServicesResolved"]?.boolValue ?? false
        modalias = device["Modalias"]?.stringValue
        rssi = device["RSSI"]?.integerValue.flatMap { Int16(exactly: $0) }
        batteryPercentage = interfaces[BlueZ.batteryInterface.rawValue]?["Percentage"]?.integerValue
            .flatMap { UInt8(exactly: $0) }
    }

    /// The display name: the alias (which defaults to the name, then the address).
    package var displayName: String { alias }
}

/// A snapshot of one `org.bluez.Adapter1` object.
package struct BlueZAdapter: Sendable, Equatable {
    package var path: ObjectPath
    package var address: String
    package var name: String
    package var powered: Bool
    package var discovering: Bool
    package var pairable: Bool

    /// Reads an adapter from its interfaces' properties; nil when `Adapter1` is missing.
    package init?(path: ObjectPath, interfaces: [String: [String: DBusValue]]) {
        guard let adapter = interfaces[BlueZ.adapterInterface.rawValue] else { return nil }
        self.path = path
        address = adapter["Address"]?.stringValue ?? ""
        name = adapter["Alias"]?.stringValue ?? adapter["Name"]?.stringValue ?? path.lastElement
        powered = adapter["Powered"]?.boolValue ?? false
        discovering = adapter["Discovering"]?.boolValue ?? false
        pairable = adapter["Pairable"]?.boolValue ?? false
    }
}

extension BlueZDevice {
    /// Whether the device is a keyboard by its class, appearance, icon or services (``KeyboardClassifier``).
    package var isKeyboard: Bool {
        KeyboardClassifier.classify(
            DeviceTraits(classOfDevice: classOfDevice, appearance: appearance, icon: icon, uuidStrings: uuids)
        ).isKeyboard
    }
}
