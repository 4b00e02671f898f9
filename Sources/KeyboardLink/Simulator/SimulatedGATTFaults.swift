import KeyboardLinkBlueZ

/// Faults a simulated GATT server injects, for tests.
package struct SimulatedGATTFaults: Sendable, Equatable {
    /// The n-th `ReadValue` (counting from 1, from when the fault is set) disconnects the device: it and every
    /// read still in flight fail with `org.bluez.Error.Failed: Not connected`, and the GATT objects go away, as
    /// when a keyboard falls asleep in the middle of a refresh. Fires once.
    package var disconnectAtRead: Int?
    /// The n-th `StartNotify` (counting from 1, from when the fault is set) loses the link while its CCC write is in
    /// flight: the device disconnects and the call answers `org.bluez.Error.Failed: Operation failed with ATT error:
    /// 0x0e`, as bluetoothd 5.66 answers when the link drops under the write (a real keyboard's link dropped by
    /// the 30 s ATT timeout of a PDU BlueZ before 5.78 lost while the link's security changed; docs/real-bluez.md).
    /// Fires once.
    package var dropLinkAtStartNotify: Int?
    /// With ``dropLinkAtStartNotify``: the failed `StartNotify` is not answered until
    /// ``SimulatedGATTServer/releaseHeldAnswers(for:)``, as an answer that a loaded bus or a busy client took long to
    /// deliver: the keyboard can be back before the caller learns that its call failed.
    package var holdDroppedStartNotifyAnswer: Bool
    /// This many `ReadValue` calls answer `org.bluez.Error.InProgress` before reads work again.
    package var inProgressAnswers: Int
    /// Characteristics whose reads answer `org.bluez.Error.NotPermitted`.
    package var notPermitted: Set<BluetoothUUID>
    /// How long `StopNotify` takes before it ends the session and answers, as a busy bluetoothd may: other calls
    /// (a new `StartNotify`) are served meanwhile.
    package var stopNotifyDelay: Duration

    /// No faults, or the ones given.
    package init(
        disconnectAtRead: Int? = nil, dropLinkAtStartNotify: Int? = nil, holdDroppedStartNotifyAnswer: Bool = false,
        inProgressAnswers: Int = 0, notPermitted: Set<BluetoothUUID> = [], stopNotifyDelay: Duration = .zero
    ) {
        self.disconnectAtRead = disconnectAtRead
        self.dropLinkAtStartNotify = dropLinkAtStartNotify
        self.holdDroppedStartNotifyAnswer = holdDroppedStartNotifyAnswer
        self.inProgressAnswers = inProgressAnswers
        self.notPermitted = notPermitted
        self.stopNotifyDelay = stopNotifyDelay
    }
}
