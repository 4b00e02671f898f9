import KeyboardLinkBlueZ

/// Faults a simulated GATT server injects, for tests.
package struct SimulatedGATTFaults: Sendable, Equatable {
    /// The n-th `ReadValue` (counting from 1, from when the fault is set) disconnects the device: it and every
    /// read still in flight fail with `org.bluez.Error.Failed: Not connected`, and the GATT objects go away, as
    /// when a keyboard falls asleep in the middle of a refresh. Fires once.
    package var disconnectAtRead: Int?
    /// This many `ReadValue` calls answer `org.bluez.Error.InProgress` before reads work again.
    package var inProgressAnswers: Int
    /// Characteristics whose reads answer `org.bluez.Error.NotPermitted`.
    package var notPermitted: Set<BluetoothUUID>
    /// How long `StopNotify` takes before it ends the session and answers, as a busy bluetoothd may: other calls
    /// (a new `StartNotify`) are served meanwhile.
    package var stopNotifyDelay: Duration

    /// No faults, or the ones given.
    package init(
        disconnectAtRead: Int? = nil, inProgressAnswers: Int = 0, notPermitted: Set<BluetoothUUID> = [],
        stopNotifyDelay: Duration = .zero
    ) {
        self.disconnectAtRead = disconnectAtRead
        self.inProgressAnswers = inProgressAnswers
        self.notPermitted = notPermitted
        self.stopNotifyDelay = stopNotifyDelay
    }
}
