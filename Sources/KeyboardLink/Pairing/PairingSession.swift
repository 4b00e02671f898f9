import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// One pairing the daemon is running, as the coordinator tracks it.
struct PairingSession {
    let id: UInt64
    let address: BluetoothAddress
    /// Who called `Pair` (its unique name), followed so the pairing ends if it leaves.
    let caller: BusName?
    /// The keyboard's name for messages; the address until BlueZ knows better.
    var name: String
    var step: PairingStep = .starting
    /// BlueZ's object for the device, once known. Agent calls about other paths are not ours.
    var devicePath: ObjectPath?
    /// The device's state when the flow found it, for the undo.
    var before: PairingDeviceFlags?
    /// `Device1.Pair` was sent and has not answered (we may have stopped waiting for it).
    var pairCallRunning = false
    /// The last prompt relayed.
    var lastPrompt: PairingPrompt.Kind?
    /// The serial of the newest `DisplayPasskey` relayed: those calls carry no reply and may be handled out of
    /// order, so an older one is dropped.
    var lastPasskeySerial: UInt32 = 0
    /// Set when the pairing is stopped from outside.
    var endReason: PairingEndReason?
    /// The BlueZ that the flow started with; another one means BlueZ restarted under us.
    var blueZOwner: BusName?
    var task: Task<Void, Error>?

    init(id: UInt64, address: BluetoothAddress, caller: BusName?, name: String) {
        self.id = id
        self.address = address
        self.caller = caller
        self.name = name
    }

    var failureContext: PairingFailure.Context {
        PairingFailure.Context(name: name, address: address, step: step, lastPrompt: lastPrompt)
    }
}
