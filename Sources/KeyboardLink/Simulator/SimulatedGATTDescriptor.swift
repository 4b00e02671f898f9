import KeyboardLinkBlueZ

/// One descriptor of a simulated characteristic, such as a Characteristic User Description (0x2901).
package struct SimulatedGATTDescriptor: Sendable, Equatable {
    /// The descriptor's UUID.
    package var uuid: BluetoothUUID
    /// Its value.
    package var value: [UInt8]

    /// Creates a descriptor.
    package init(uuid: BluetoothUUID, value: [UInt8]) {
        self.uuid = uuid
        self.value = value
    }

    /// A Characteristic User Description (0x2901) with UTF-8 text, such as "Left".
    package static func userDescription(_ text: String) -> SimulatedGATTDescriptor {
        SimulatedGATTDescriptor(uuid: .characteristicUserDescription, value: Array(text.utf8))
    }
}
