/// What to do to a device after a pairing failed or was canceled, so that nothing is left half-done.
package enum PairingRepair: Sendable, Equatable {
    /// `Device1.CancelPairing`: BlueZ may still be pairing although we stopped waiting.
    case cancelPairing
    /// `Adapter1.RemoveDevice`: drops the bond (and with it the trust) that the failed pairing created.
    case removeDevice
    /// Sets `Trusted` back.
    case setTrusted(Bool)

    /// Whether BlueZ has to be told to stop pairing: we stopped waiting while `Device1.Pair` was still running.
    package static func needsCancel(step: PairingStep, pairCallRunning: Bool) -> Bool {
        step == .pairing && pairCallRunning
    }

    /// The repairs that bring a device back to how it was before a pairing that did not finish.
    ///
    /// A device that was not paired before is never left paired or trusted; a device that was already paired
    /// (kblink pair only trusted and connected it) keeps its bond and gets its old trust back.
    /// - Parameters:
    ///   - before: the device's state when the pairing started.
    ///   - now: its state after the failure.
    package static func repairs(before: PairingDeviceFlags, now: PairingDeviceFlags) -> [PairingRepair] {
        if !before.paired {
            if now.paired { return [.removeDevice] }
            if now.trusted { return [.setTrusted(false)] }
            return []
        }
        return now.trusted != before.trusted ? [.setTrusted(before.trusted)] : []
    }
}
