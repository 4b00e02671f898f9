import Synchronization

extension GATTClient {
    /// Waits until the device's GATT objects stop changing: no object below the device added or removed for
    /// `quiet`, and every service of `expected` that the device lists in its `UUIDs` exported; or `limit` passed.
    ///
    /// bluetoothd 5.66 announces `ServicesResolved` before the `InterfacesAdded` of the GATT objects it exports for
    /// the connection (both leave from gdbus's idle handler, the property change first), so a reader that starts at
    /// `ServicesResolved` sees only the first services, or none (found by the real-stack rig, docs/real-bluez.md).
    /// The services BlueZ resolved are in the device's `UUIDs` before their objects are exported, so a service the
    /// device lists is worth waiting for even past a quiet spell (a loaded machine can space the announcements out).
    package func waitForGATTObjectsToSettle(
        quiet: Duration = .milliseconds(400), limit: Duration = .seconds(5), expected: Set<BluetoothUUID> = [],
        listedWait: Duration = .seconds(2)
    ) async {
        let device = self.device
        let listed = Set(
            (await model.current().devices[device]?.uuids ?? []).compactMap(BluetoothUUID.init(validating:)))
        let wanted = listed.intersection(expected)
        let clock = ContinuousClock()
        let lastChange = SettleClock(clock.now)
        let updates = await model.updates()
        let watcher = Task {
            for await update in updates {
                guard let changed = update.changedPaths,
                    changed.contains(where: { $0 != device && $0.isDescendant(of: device) })
                else { continue }
                lastChange.instant.withLock { $0 = clock.now }
            }
        }
        defer { watcher.cancel() }
        let deadline = clock.now.advanced(by: limit)
        let listedDeadline = clock.now.advanced(by: quiet + listedWait)
        // The model's own count of the device's GATT objects, checked at every wake as well: on a starved machine the
        // watcher may not have run yet when the quiet spell seems over.
        var objectCount = -1
        while clock.now < deadline {
            let database = await database()
            let count = database.services.count + database.characteristics.count + database.descriptors.count
            if count != objectCount {
                if objectCount >= 0 { lastChange.instant.withLock { $0 = max($0, clock.now) } }
                objectCount = count
            }
            let settledAt = lastChange.instant.withLock { $0 }.advanced(by: quiet)
            if clock.now >= settledAt {
                // A listed service is waited for at most `listedWait` more: a BlueZ that keeps a service to itself
                // (a profile that claims it) never exports it.
                if clock.now >= listedDeadline { return }
                if wanted.allSatisfy({ !database.services($0).isEmpty }) { return }
            }
            try? await Task.sleep(
                until: min(max(settledAt, clock.now.advanced(by: .milliseconds(50))), deadline), clock: clock)
            if Task.isCancelled { return }
        }
    }
}

/// When a device's GATT objects last changed, shared between the watching task and the waiter.
private final class SettleClock: Sendable {
    let instant: Mutex<ContinuousClock.Instant>

    init(_ instant: ContinuousClock.Instant) {
        self.instant = Mutex(instant)
    }
}
