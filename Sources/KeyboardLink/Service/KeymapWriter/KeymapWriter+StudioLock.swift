import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDrivers

/// A ZMK Studio keyboard's `StudioLock`: whatever a Studio link of it learns (answers, `lock_state_changed`
/// notifications, `UNLOCK_REQUIRED` errors) goes to the property while the link is open (``makeDriver(_:)``); when
/// the keyboard connects, kblinkd asks it once (`get_lock_state`).
extension KeymapWriter {
    /// Asks a connected ZMK Studio keyboard whose lock state is unknown whether it is locked. Skipped while a push,
    /// pull or read of it runs: its driver reports the lock state itself.
    func readStudioLock(_ address: BluetoothAddress) async {
        guard let state = await registry.keyboard(address), state.studioLock == .unknown,
            await registry.isConnected(state), await pushes.beginFirstContactRead(address)
        else { return }
        do {
            if let driver = try await makeDriver(state) {
                do {
                    _ = try await (driver as? StudioDriver)?.readLockState()
                } catch {
                    log(.info, "\(state.alias) (\(address)): could not ask whether it is locked: \(error)")
                }
                await release(driver, of: address)
            }
        } catch {
            log(.info, "\(state.alias) (\(address)): could not reach its ZMK Studio link: \(error)")
        }
        await pushes.end(address)
    }
}

extension StudioLock {
    /// The property's word for what a Studio link reported.
    init(_ state: StudioLockState) {
        switch state {
        case .locked: self = .locked
        case .unlocked: self = .unlocked
        case .unrecognized: self = .unknown
        }
    }
}
