import Synchronization

extension GATTClient {
    /// Waits until the device's GATT objects stop changing: no object below the device added or removed for
    /// `quiet`, or `limit` passed.
    ///
    /// bluetoothd 5.66 announces `ServicesResolved` before the `InterfacesAdded` of the GATT objects it exports for
    /// the connection (both leave from gdbus's idle handler, the property change first), so a reader that starts at
    /// `ServicesResolved` sees only the first services, or none (found by the real-stack rig, docs/real-bluez.md).
    public func waitForGATTObjectsToSettle(
        quiet: Duration = .milliseconds(400), limit: Duration = .seconds(5)
    ) async {
        let device = self.device
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
        while clock.now < deadline {
            let settledAt = lastChange.instant.withLock { $0 }.advanced(by: quiet)
            if clock.now >= settledAt { return }
            try? await Task.sleep(until: min(settledAt, deadline), clock: clock)
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
