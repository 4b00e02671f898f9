/// A step of the healing ladder (docs/health.md).
package enum HealStep: String, Sendable, Equatable, CaseIterable {
    /// `Device1.ConnectProfile` with the HID UUID: classic keyboards only (bluetoothd sends it over BR/EDR, where
    /// it cannot reach an LE keyboard's input profile).
    case connectProfile = "connect-profile"
    /// `Device1.Disconnect`, then `Device1.Connect`.
    case reconnect
    /// The adapter's `Powered` off, then on (only when configured, and never while another device is connected on
    /// that adapter).
    case powerCycleAdapter = "power-cycle-adapter"

    /// Whether the step disconnects the keyboard on its way (its disconnection does not end the episode).
    package var disconnects: Bool { self != .connectProfile }

    /// What the step does, in words, for `HealthDetail` and the journal.
    package var doing: String {
        switch self {
        case .connectProfile: "asking BlueZ to connect its input profile again"
        case .reconnect: "disconnecting and connecting it again"
        case .powerCycleAdapter: "switching its Bluetooth adapter off and on"
        }
    }
}
