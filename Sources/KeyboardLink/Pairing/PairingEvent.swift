import KeyboardLinkBlueZ
import KeyboardLinkDBus

extension PairingCoordinator {
    /// What a pairing tells the person who asked for it, raised by the coordinator for the service to publish
    /// (the `PairingPrompt` and `PairingFinished` signals of `org.kblink1.Manager`, docs/pairing.md).
    package enum Event: Sendable {
        /// Show `prompt` for the keyboard at `address` to `caller` (everyone when nil).
        case prompt(PairingPrompt, address: BluetoothAddress, caller: BusName?)
        /// The pairing of the keyboard at `address` (BlueZ's `name` for it) ended: with success when `failure` is
        /// nil. Raised before the pairing's session ends, so a new pairing of the keyboard never sees this one's end.
        case finished(address: BluetoothAddress, name: String, failure: PairingFailure?, caller: BusName?)
    }
}
