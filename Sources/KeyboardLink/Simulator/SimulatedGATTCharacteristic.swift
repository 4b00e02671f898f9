import KeyboardLinkBlueZ

/// One characteristic of a simulated GATT service.
package struct SimulatedGATTCharacteristic: Sendable, Equatable {
    /// The characteristic's UUID.
    package var uuid: BluetoothUUID
    /// Its value, as served by `ReadValue`.
    package var value: [UInt8]
    /// What it allows (`read`, `write`, `notify`, ...).
    package var flags: GATTCharacteristicFlags
    /// Its descriptors, in handle order.
    package var descriptors: [SimulatedGATTDescriptor]
    /// When set, one `ReadValue` returns at most this many bytes from its offset, like a stack that answers
    /// one ATT chunk per read (the `MTU` property is then this plus one); nil: the whole value, as bluetoothd.
    package var readChunkLimit: Int?

    /// Creates a characteristic.
    package init(
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
