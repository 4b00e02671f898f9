import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// The keyboard `kblink pair` is about: resolved before pairing so that its prompts can be told apart.
public struct PairingTarget: Sendable, Equatable {
    /// The keyboard's address.
    public var address: BluetoothAddress
    /// Its name when kblinkd knows it, else the address.
    public var name: String

    /// A target as given.
    public init(address: BluetoothAddress, name: String) {
        self.address = address
        self.name = name
    }

    /// The keyboard's object path, which the pairing signals carry.
    public var keyboard: ObjectPath { KBlink.keyboardPath(address) }
}
