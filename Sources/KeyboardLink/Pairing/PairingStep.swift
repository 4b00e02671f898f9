/// Where a pairing flow is; the undo after a failure depends on it.
package enum PairingStep: String, Sendable, Equatable {
    /// Checking BlueZ and the device.
    case starting
    /// Scanning for a device BlueZ does not know yet.
    case discovering
    /// `Device1.Pair` is running: the agent conversation happens now.
    case pairing
    /// Setting `Trusted`.
    case trusting
    /// `Device1.Connect` is running.
    case connecting
    /// Checking that the keyboard ended paired, trusted and connected.
    case finishing
}
