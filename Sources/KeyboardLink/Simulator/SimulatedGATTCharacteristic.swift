import KeyboardLinkBlueZ

/// One characteristic of a simulated GATT service.
public struct SimulatedGATTCharacteristic: Sendable, Equatable {
    /// The characteristic's UUID.
    public var uuid: BluetoothUUID
    /// Its value, as served by `ReadValue`.
    public var value: [UInt8]
    /// What it allows (`read`, `write`, `notify`, ...).
    public var flags: GATTCharacteristicFlags
    /// Its descriptors, in handle order.
    public var descriptors: [SimulatedGATTDescriptor]
    /// When set, one `ReadValue` returns at most this many bytes from its offset, like a stack that answers
    /// one ATT chunk per read (the `MTU` property is then this plus one); nil: the whole value, as bluetoothd.
    public var readChunkLimit: Int?

    /// Creates a characteristic.
    public init(
        uuid: BluetoothUUID, value: [UInt8], flags: GATTCharacteristicFlags = [.read],
        descriptors: [SimulatedGATTDescriptor] = [], readChunkLimit: Int? = nil
    ) {
        self.uuid = uuid
        self.value = value
        self.flags = flags
        self.descriptors = descriptors
        self.readChunkLimit = readChunkLimit
    }
}
