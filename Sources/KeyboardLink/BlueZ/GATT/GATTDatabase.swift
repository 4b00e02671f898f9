import KeyboardLinkDBus

/// The GATT objects BlueZ exports below one device: its services, their characteristics and descriptors, each
/// list in ATT handle order (BlueZ's object paths carry the handle, so path order is handle order when BlueZ
/// does not report `Handle`).
///
/// A keyboard that lacks a service simply has none of its objects here; that is normal, not an error.
package struct GATTDatabase: Sendable, Equatable {
    /// The device the objects belong to.
    package var device: ObjectPath
    /// Every service, in handle order.
    package var services: [GATTService]
    /// Every characteristic, in handle order.
    package var characteristics: [GATTCharacteristic]
    /// Every descriptor, in handle order.
    package var descriptors: [GATTDescriptor]

    /// Creates a database from already parsed objects; they are sorted into handle order.
    package init(
        device: ObjectPath, services: [GATTService], characteristics: [GATTCharacteristic],
        descriptors: [GATTDescriptor]
    ) {
        self.device = device
        self.services = services.sorted { Self.precedes($0.handle, $0.path, $1.handle, $1.path) }
        self.characteristics = characteristics.sorted { Self.precedes($0.handle, $0.path, $1.handle, $1.path) }
        self.descriptors = descriptors.sorted { Self.precedes($0.handle, $0.path, $1.handle, $1.path) }
    }

    /// Reads the objects below `device` from the live BlueZ model; objects with a malformed UUID are skipped.
    package static func load(from model: BlueZModel, device: ObjectPath) async -> GATTDatabase {
        let services = await model.objects(below: device, implementing: BlueZ.gattServiceInterface)
        let characteristics = await model.objects(below: device, implementing: BlueZ.gattCharacteristicInterface)
        let descriptors = await model.objects(below: device, implementing: BlueZ.gattDescriptorInterface)
        return GATTDatabase(
            device: device,
            services: services.compactMap { GATTService(path: $0.key, properties: $0.value) },
            characteristics: characteristics.compactMap { GATTCharacteristic(path: $0.key, properties: $0.value) },
            descriptors: descriptors.compactMap { GATTDescriptor(path: $0.key, properties: $0.value) })
    }

    /// The services with this UUID, in handle order (a keyboard may have several Battery Services).
    package func services(_ uuid: BluetoothUUID) -> [GATTService] {
        services.filter { $0.uuid == uuid }
    }

    /// The characteristics of one service, in handle order.
    package func characteristics(of service: GATTService) -> [GATTCharacteristic] {
        characteristics.filter { $0.service == service.path }
    }

    /// The characteristics with this UUID in any service, in handle order.
    package func characteristics(_ uuid: BluetoothUUID) -> [GATTCharacteristic] {
        characteristics.filter { $0.uuid == uuid }
    }

    /// The first characteristic with `uuid` in the first service with `serviceUUID` that has one.
    package func characteristic(_ uuid: BluetoothUUID, inService serviceUUID: BluetoothUUID) -> GATTCharacteristic? {
        let servicePaths = Set(services(serviceUUID).map(\.path))
        return characteristics.first { $0.uuid == uuid && servicePaths.contains($0.service) }
    }

    /// The descriptors of one characteristic, in handle order.
    package func descriptors(of characteristic: GATTCharacteristic) -> [GATTDescriptor] {
        descriptors.filter { $0.characteristic == characteristic.path }
    }

    /// The descriptor with `uuid` of one characteristic, if it has one.
    package func descriptor(_ uuid: BluetoothUUID, of characteristic: GATTCharacteristic) -> GATTDescriptor? {
        descriptors.first { $0.characteristic == characteristic.path && $0.uuid == uuid }
    }

    /// Handle order when both handles are known, else path order.
    private static func precedes(
        _ lhsHandle: UInt16?, _ lhsPath: ObjectPath, _ rhsHandle: UInt16?, _ rhsPath: ObjectPath
    )
        -> Bool
    {
        if let lhsHandle, let rhsHandle, lhsHandle != rhsHandle { return lhsHandle < rhsHandle }
        return lhsPath < rhsPath
    }
}
