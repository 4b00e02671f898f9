import KeyboardLinkBlueZ

/// One primary service of a simulated keyboard's GATT database.
package struct SimulatedGATTService: Sendable, Equatable {
    /// The service's UUID.
    package var uuid: BluetoothUUID
    /// Its characteristics, in handle order.
    package var characteristics: [SimulatedGATTCharacteristic]

    /// Creates a service.
    package init(uuid: BluetoothUUID, characteristics: [SimulatedGATTCharacteristic]) {
        self.uuid = uuid
        self.characteristics = characteristics
    }
}
