import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// Why a pairing did not happen (or could not be canceled), as the pairing domain knows it: the service turns each
/// into an `org.kblink1.Error.*` with a message a person can act on (`Service/Errors/DomainErrors+DBus.swift`).
package enum PairingFailure: Error, Sendable {
    /// What was known about the pairing when it stopped.
    package struct Context: Sendable, Equatable {
        /// The keyboard's name (or its address when BlueZ has no name for it).
        package var name: String
        /// The keyboard's address, for the command to run again.
        package var address: BluetoothAddress
        /// The step the pairing was at.
        package var step: PairingStep
        /// The last prompt shown, if any: it tells a rejected passkey from a rejected PIN, and a keyboard that
        /// never answered from a code that was not typed in time.
        package var lastPrompt: PairingPrompt.Kind?

        /// A context as given.
        package init(name: String, address: BluetoothAddress, step: PairingStep, lastPrompt: PairingPrompt.Kind? = nil)
        {
            self.name = name
            self.address = address
            self.step = step
            self.lastPrompt = lastPrompt
        }
    }

    /// A pairing of the device is running already, at `step`.
    case alreadyPairing(name: String, step: PairingStep)
    /// No pairing of the device is running (to cancel).
    case notPairing(BluetoothAddress)
    /// No question about the device waits for an answer (`ConfirmPairing`).
    case noQuestion(BluetoothAddress)
    /// Someone other than the `Pair` caller tried to answer its question.
    case notThePairCaller(BluetoothAddress)
    /// Someone other than the `Pair` caller (and not root) tried to cancel the pairing.
    case notThePairCallerToCancel(BluetoothAddress)
    /// BlueZ is not on the bus; `action` is what could not be done, nil for registering the agent.
    case blueZNotRunning(action: String?)
    /// No Bluetooth adapter is present to look for the device with.
    case noAdapter(looking: BluetoothAddress)
    /// The Bluetooth adapters are off.
    case adapterOff(looking: BluetoothAddress)
    /// BlueZ does not know the device.
    case unknownDevice(BluetoothAddress)
    /// The device is not a keyboard (kblink pairs keyboards only).
    case notAKeyboard(name: String, address: BluetoothAddress)
    /// Discovery did not find the device within `timeout`.
    case notFound(BluetoothAddress, timeout: Duration)
    /// The keyboard did not end paired, trusted and connected (what it was instead); the pairing was undone.
    case unsettled(name: String, address: BluetoothAddress, flags: PairingDeviceFlags)
    /// A BlueZ call failed while doing `action` ("register the pairing agent").
    case blueZ(any Error, while: String)
    /// The pairing ended without success: what the flow threw, the reason when it was stopped from outside (which
    /// wins over the error), and what was known about it.
    case ended(any Error, reason: PairingEndReason?, context: Context)
}
