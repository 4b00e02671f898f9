import KeyboardLinkBlueZ

/// One descriptor of a simulated characteristic, such as a Characteristic User Description (0x2901).
public struct SimulatedGATTDescriptor: Sendable, Equatable {
    /// The descriptor's UUID.
    public var uuid: BluetoothUUID
    /// Its value.
    public var value: [UInt8]

    /// Creates a descriptor.
    public init(uuid: BluetoothUUID, value: [UInt8]) {
        self.uuid = uuid
        self.value = value
    }

    /// A Characteristic User Description (0x2901) with UTF-8 text, such as "Left".
    public static func userDescription(_ text: String) -> SimulatedGATTDescriptor {
        SimulatedGATTDescriptor(uuid: .characteristicUserDescription, value: Array(text.utf8))
    }
}
