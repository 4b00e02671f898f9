import KBlinkAPI
import KeyboardLinkBlueZ

/// A keyboard whose link drops under a firmware session and comes straight back.
///
/// BlueZ before 5.78 can lose an ATT PDU written while a link's security changes, as it does during pairing
/// (`can_write_data` in src/shared/att.c took a failed write for a sent one; fixed by commit 32a081168, "att:
/// Correctly handle negative return values in can_write_data"). The side that waits for the lost answer gives up after
/// ATT's 30 s transaction timeout and drops the link; a trusted keyboard is connected again within moments. A
/// session that was running then fails with `NotConnected` although the keyboard is there again (docs/real-bluez.md).
///
/// A pull, which only reads, is tried once more when the keyboard comes back; so is a push that had sent nothing
/// that changes the keyboard (it was connecting, reading the keyboard or planning). A push cut after its first
/// change is not: it answers what it wrote and rolled back, and the user pushes again.
extension KeymapWriter {
    /// The push, tried once more when it failed with `NotConnected` before changing anything on the keyboard and the
    /// keyboard's link came back.
    func pushAgainAfterLinkDrop(_ state: KeyboardState, options: PushOptions) async throws -> PushReport {
        let drops = await bluez.linkDrops(of: state.devicePath)
        do {
            return try await performPush(state, options: options)
        } catch let failure as PushFailedBeforeChanges {
            guard let error = failure.error as? KBlinkError, error.code == .notConnected,
                await cameBackAfterLinkDrop(state, dropsBefore: drops)
            else { throw failure.error }
            log(
                .notice,
                "\(state.alias) (\(state.address)): the link dropped before the push changed anything and came back; "
                    + "pushing again")
            do {
                return try await performPush(state, options: options)
            } catch let again as PushFailedBeforeChanges {
                throw again.error
            }
        }
    }

    /// Waits for a healing step that holds the keyboard to end, then, when it waited, up to ``Timeouts/linkReturn``
    /// for kblinkd to see the keyboard connected again with its services resolved: the step returns when BlueZ
    /// answered its `Connect`, and BlueZ's signals of the link coming back (`Connected`, the GATT objects,
    /// `ServicesResolved`) can arrive after that answer. A push that looked at the keyboard on `Connected` alone would
    /// find no firmware service yet and answer `NotSupported`.
    func waitForHealingStep(_ address: BluetoothAddress) async {
        guard await pushes.waitWhileHealing(address), let state = await registry.keyboard(address) else { return }
        let client = GATTClient(connection: connection, model: bluez, device: state.devicePath)
        try? await client.waitUntilServicesResolved(timeout: timeouts.linkReturn, waitForConnection: true)
    }

    /// After a firmware session failed with `NotConnected`: whether the keyboard's link dropped and came back.
    ///
    /// The link dropped when BlueZ counted a drop since the session began (`dropsBefore`, from
    /// ``BlueZModel/linkDrops(of:)``: a link that dropped and came back before this looks counts) or shows the link
    /// down within 3 s (a session that failed on a link that stayed up is not tried again). It then waits up to
    /// ``Timeouts/linkReturn`` for it to be connected with its services resolved. `ServicesResolved` turning false
    /// counts as the link going down: bluetoothd refuses GATT calls with `NotConnected` for 2 s after a
    /// `Device1.Disconnect` while both properties stay true (`DISCONNECT_TIMER` in src/device.c), then drops
    /// `ServicesResolved` with the ATT channel, and `Connected` can follow seconds later (docs/real-bluez.md,
    /// finding 18).
    func cameBackAfterLinkDrop(_ state: KeyboardState, dropsBefore: UInt64) async -> Bool {
        let path = state.devicePath
        let updates = await bluez.updates()
        let dropped = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await update in updates {
                    guard let device = update.snapshot.devices[path], device.connected, device.servicesResolved,
                        update.snapshot.linkDrops[path, default: 0] == dropsBefore
                    else { return true }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(3))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard dropped else { return false }
        log(.info, "\(state.alias) (\(state.address)): the link dropped; waiting up to \(timeouts.linkReturn) for it")
        let client = GATTClient(connection: connection, model: bluez, device: path)
        do {
            try await client.waitUntilServicesResolved(timeout: timeouts.linkReturn, waitForConnection: true)
            return true
        } catch {
            return false
        }
    }
}

/// A push's failure before it sent the keyboard anything that changes it (`performPush`): the keyboard is as it was,
/// so the push may be tried again. `pushAgainAfterLinkDrop` unwraps it: callers see `error`.
struct PushFailedBeforeChanges: Error {
    /// What the push answers when it is not tried again.
    var error: any Error
}
