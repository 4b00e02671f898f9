import KeyboardLinkBlueZ

/// A keyboard whose link drops under a firmware session and comes straight back.
///
/// BlueZ before 5.78 can lose an ATT PDU written while a link's security changes, as it does during pairing
/// (`can_write_data` in src/shared/att.c took a failed write for a sent one; fixed by commit 32a081168, "att:
/// Correctly handle negative return values in can_write_data"). The side that waits for the lost answer gives up after
/// ATT's 30 s transaction timeout and drops the link; a trusted keyboard is connected again within moments. A
/// session that was running then fails with `NotConnected` although the keyboard is there again (docs/real-bluez.md).
extension KeymapWriter {
    /// After a firmware session failed with `NotConnected`: whether the keyboard's link dropped and came back.
    ///
    /// Waits up to 3 s for BlueZ to show the keyboard disconnected (a session that failed on a link that stayed up
    /// is not tried again), then up to ``Timeouts/linkReturn`` for it to be connected with its services resolved.
    func cameBackAfterLinkDrop(_ state: KeyboardState) async -> Bool {
        let path = state.devicePath
        let updates = await bluez.updates()
        let dropped = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await update in updates where !(update.snapshot.devices[path]?.connected ?? false) {
                    return true
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
