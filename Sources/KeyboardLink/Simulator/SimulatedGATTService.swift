import KeyboardLinkBlueZ

/// One primary service of a simulated keyboard's GATT database.
public struct SimulatedGATTService: Sendable, Equatable {
    /// The service's UUID.
    public var uuid: BluetoothUUID
    /// Its characteristics, in handle order.
    public var characteristics: [SimulatedGATTCharacteristic]

    /// Creates a service.
    public init(uuid: BluetoothUUID, characteristics: [SimulatedGATTCharacteristic]) {
        self.uuid = uuid
        self.characteristics = characteristics
    }
}
