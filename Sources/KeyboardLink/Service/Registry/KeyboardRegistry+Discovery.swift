import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// `StartDiscovery` and `StopDiscovery` of `org.kblink1.Manager`: kblinkd's own discovery sessions on the powered
/// adapters, filtered to keyboards, stopped after the discovery timeout when nobody stops them.
extension KeyboardRegistry {
    func startDiscovery() async throws {
        try requireBlueZ("start discovery")
        let powered = snapshot.adapters.values.filter(\.powered).sorted { $0.path < $1.path }
        guard !powered.isEmpty else {
            throw KBlinkError.failed(
                snapshot.adapters.isEmpty
                    ? "cannot start discovery: no Bluetooth adapter is present"
                    : "cannot start discovery: the Bluetooth adapter is off; power it on with 'bluetoothctl power on'")
        }
        for adapter in powered where !discoverySessions.contains(adapter.path) {
            let proxy = DBusProxy(
                connection: connection, destination: BlueZ.service, path: adapter.path,
                interface: BlueZ.adapterInterface)
            do {
                try await proxy.call(BlueZ.Method.setDiscoveryFilter, [DiscoveryFilter.keyboards.dbusValue])
                try await proxy.call(BlueZ.Method.startDiscovery)
                discoverySessions.insert(adapter.path)
                log(.debug, "discovering on \(adapter.path.lastElement)")
            } catch let error as DBusError where error.name == BlueZ.Error.inProgress {
                // Our session there is still running (BlueZ allows one per client): it goes on.
                discoverySessions.insert(adapter.path)
            } catch {
                throw KBlinkError.fromBlueZ(error, while: "start discovery on \(adapter.path.lastElement)")
            }
        }
        let timeout = discoveryTimeout
        discoveryStopper?.cancel()
        discoveryStopper = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            await self?.discoveryTimedOut()
        }
    }

    /// The discovery timeout passed: stops the scans. The stopper task is forgotten first, so that
    /// ``stopDiscovery()`` does not cancel the very task that runs it (its calls to BlueZ would then fail with a
    /// CancellationError before reaching BlueZ, and the adapters would discover forever).
    private func discoveryTimedOut() async {
        discoveryStopper = nil
        do {
            try await stopDiscovery()
        } catch {
            log(.warning, "the discovery timeout could not stop discovery: \(error)")
        }
    }

    /// Stops kblinkd's discovery on every adapter it started it on. Each adapter is tried whatever the others
    /// answer; one still busy with the previous command (`InProgress`) is asked again a few times; one that cannot be
    /// stopped stays in the sessions, so that the next stop tries it again, and the first failure is thrown after
    /// all were tried.
    func stopDiscovery() async throws {
        try requireBlueZ("stop discovery")
        discoveryStopper?.cancel()
        discoveryStopper = nil
        let sessions = discoverySessions.sorted { $0 < $1 }
        discoverySessions.removeAll()
        log(.debug, "stopping discovery on \(sessions.map(\.lastElement).joined(separator: ", "))")
        var firstFailure: (any Error)?
        for path in sessions {
            do {
                try await stopDiscovery(on: path)
            } catch {
                log(.warning, "cannot stop discovery on \(path.lastElement): \(error)")
                discoverySessions.insert(path)
                if firstFailure == nil { firstFailure = error }
            }
        }
        if let firstFailure {
            throw KBlinkError.fromBlueZ(firstFailure, while: "stop discovery")
        }
    }

    /// How often, and how far apart, a StopDiscovery answered `InProgress` is sent again.
    static let stopDiscoveryAttempts = 10
    static let stopDiscoveryRetryDelay: Duration = .milliseconds(200)

    /// StopDiscovery on one adapter; done when it ended already (adapter powered off or gone).
    ///
    /// `InProgress` means one of two things in bluetoothd (src/adapter.c, 5.66 and upstream): our StartDiscovery still
    /// waits for the controller (asked again, the session is still there), or the controller refused the stop because
    /// Linux's LE discovery ended by itself at that moment; bluetoothd then forgot our session but left `Discovering`
    /// true, and the next stop answers "No discovery started". In that second case one new session, started and
    /// stopped, brings bluetoothd back to an adapter that does not discover (docs/real-bluez.md, finding 14).
    private func stopDiscovery(on path: ObjectPath) async throws {
        let proxy = DBusProxy(
            connection: connection, destination: BlueZ.service, path: path, interface: BlueZ.adapterInterface)
        var answeredInProgress = false
        var startedAgain = false
        for attempt in 1...Self.stopDiscoveryAttempts {
            do {
                try await proxy.call(BlueZ.Method.stopDiscovery)
                return
            } catch let error as DBusError
                where error.name == BlueZ.Error.failed && error.message == Self.noDiscoveryStarted && answeredInProgress
                && !startedAgain
            {
                log(
                    .info,
                    "BlueZ refused to stop discovery on \(path.lastElement) and forgot it: starting it to stop it")
                startedAgain = true
                answeredInProgress = false
                try await proxy.call(BlueZ.Method.startDiscovery)
            } catch let error as DBusError
                where [BlueZ.Error.failed, BlueZ.Error.notReady, ErrorName.unknownObject].contains(error.name)
            {
                // "No discovery started" (ours ended), an adapter powered off or gone: nothing to stop. Any other
                // failure is the controller refusing the stop, which the journal should show.
                if error.name == BlueZ.Error.failed && error.message != Self.noDiscoveryStarted {
                    log(.warning, "BlueZ failed to stop discovery on \(path.lastElement): \(error.message)")
                }
                return
            } catch let error as DBusError
                where error.name == BlueZ.Error.inProgress && attempt < Self.stopDiscoveryAttempts
            {
                answeredInProgress = true
                try await Task.sleep(for: Self.stopDiscoveryRetryDelay)
            }
        }
    }

    /// bluetoothd's answer to a StopDiscovery from a client without a discovery session on the adapter.
    static let noDiscoveryStarted = "No discovery started"

    /// Discovery sessions end with their adapter (removed or powered off), and all of them with BlueZ.
    func forgetEndedDiscoverySessions() {
        guard !discoverySessions.isEmpty else { return }
        guard snapshot.isBlueZRunning else {
            discoverySessions.removeAll()
            return
        }
        discoverySessions = discoverySessions.filter { snapshot.adapters[$0]?.powered == true }
    }
}
