import KeyboardLinkBlueZ

/// A Bluetooth device that BlueZ reports connected and the classifier counts as a keyboard: the presence
/// evaluator's input from the BlueZ model.
package struct ConnectedBluetoothKeyboard: Hashable, Sendable {
    /// The device address.
    package var address: BluetoothAddress
    /// Its `Alias` (or `Name`).
    package var name: String

    /// Creates an entry.
    package init(address: BluetoothAddress, name: String) {
        self.address = address
        self.name = name
    }
}
