import KeyboardLinkBlueZ

/// A Bluetooth device that BlueZ reports connected and the classifier counts as a keyboard: the presence
/// evaluator's input from the BlueZ model.
public struct ConnectedBluetoothKeyboard: Hashable, Sendable {
    /// The device address.
    public var address: BluetoothAddress
    /// Its `Alias` (or `Name`).
    public var name: String

    /// Creates an entry.
    public init(address: BluetoothAddress, name: String) {
        self.address = address
        self.name = name
    }
}
