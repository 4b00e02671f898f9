import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkSupport

/// Pairs keyboards for the daemon: exports our `org.bluez.Agent1` on the daemon's connection and registers it
/// with BlueZ (again whenever BlueZ comes back), runs one pairing flow per device, raises the agent's prompts and
/// each pairing's end as ``Event``s (which the service publishes as `PairingPrompt` and `PairingFinished`), and
/// undoes what a failed pairing left.
///
/// The agent and `Device1.Pair` share one connection on purpose: BlueZ sends the agent calls of a pairing to
/// the agent registered by the connection that called `Pair`.
package actor PairingCoordinator {
    /// The daemon's connection: the agent is exported on it and `Device1.Pair` is called from it.
    package let connection: BusConnection
    let model: BlueZModel
    /// Timeouts, agent path and whether to be the default agent.
    package let options: PairingOptions
    let log: @Sendable (LogLevel, String) -> Void
    /// Where prompts and ends of pairings go (the service publishes them); awaited, so they keep their order.
    let raise: @Sendable (Event) async -> Void

    var sessions: [BluetoothAddress: PairingSession] = [:]
    var nextSessionID: UInt64 = 0
    /// The unique name of the BlueZ on the bus, nil when it is not running.
    var blueZOwner: BusName?
    /// The BlueZ our agent is registered with.
    var agentRegisteredWith: BusName?
    private var agentExported = false
    private var ownerTask: Task<Void, Never>?
    /// Devices whose pairing BlueZ interrupted: their state before, and where they were, to repair once
    /// BlueZ is back.
    var pendingRepairs: [BluetoothAddress: (path: ObjectPath, before: PairingDeviceFlags)] = [:]
    /// The questions asked of `Pair` callers and not answered yet, one per keyboard
    /// (``PairingCoordinator/answer(_:accept:from:)``).
    var questions: [BluetoothAddress: PairingQuestion] = [:]
    var nextQuestionID: UInt64 = 0

    /// - Parameters:
    ///   - connection: the daemon's connection; the agent is exported on it and `Pair` is called from it.
    ///   - model: the live BlueZ model, for finding devices and waiting for discovery.
    ///   - log: where the coordinator reports what it does (never a passkey or PIN).
    ///   - events: where prompts and ends of pairings go, in order.
    package init(
        connection: BusConnection, model: BlueZModel, options: PairingOptions = PairingOptions(),
        log: @escaping @Sendable (LogLevel, String) -> Void,
        events: @escaping @Sendable (Event) async -> Void
    ) {
        self.connection = connection
        self.model = model
        self.options = options
        self.log = log
        self.raise = events
    }

    /// Exports the agent and follows BlueZ: the agent is registered now when BlueZ runs, and again each time
    /// it comes back.
    /// - Throws: ``DBusError`` when the agent cannot be exported or the bus refuses the subscription.
    package func start() async throws {
        guard ownerTask == nil else { return }
        if !agentExported {
            try await connection.export(
                PairingAgent.interface { [weak self] request, call in
                    guard let self else { throw DBusError(BlueZ.Error.rejected, "kblinkd is stopping") }
                    return try await self.handleAgent(request, call: call)
                },
                at: options.agentPath)
            agentExported = true
        }
        let owners = try await connection.ownerChanges(of: BlueZ.service)
        var iterator = owners.makeAsyncIterator()
        if let first = await iterator.next() {
            await blueZOwnerChanged(to: first)
        }
        ownerTask = Task { [weak self] in
            while let owner = await iterator.next() {
                await self?.blueZOwnerChanged(to: owner)
            }
        }
    }

    /// Cancels every running pairing (undoing what it did), waits for them to end and unregisters the agent.
    package func stop() async {
        ownerTask?.cancel()
        ownerTask = nil
        let running = sessions.values.compactMap(\.task)
        for address in Array(sessions.keys) {
            requestEnd(address, reason: .daemonStopping)
        }
        for task in running {
            _ = await task.result
        }
        if agentRegisteredWith != nil {
            agentRegisteredWith = nil
            _ = try? await agentManager.call(
                BlueZ.Method.unregisterAgent, [.objectPath(options.agentPath)],
                timeout: options.callTimeout)
        }
    }

    /// Whether our agent is registered with the BlueZ on the bus now.
    package var isAgentRegistered: Bool { agentRegisteredWith != nil && agentRegisteredWith == blueZOwner }

    /// The devices being paired now.
    package var activePairings: [BluetoothAddress] { sessions.keys.sorted() }

    // MARK: BlueZ coming and going

    var agentManager: DBusProxy {
        DBusProxy(
            connection: connection, destination: BlueZ.service, path: BlueZ.managerPath,
            interface: BlueZ.agentManagerInterface)
    }

    private func blueZOwnerChanged(to owner: BusName?) async {
        let previous = blueZOwner
        guard owner != previous else { return }
        blueZOwner = owner
        agentRegisteredWith = nil
        if previous != nil {
            log(owner == nil ? .warning : .notice, "BlueZ left the bus: pairings in progress end, the agent is gone")
            for address in Array(sessions.keys) {
                requestEnd(address, reason: .blueZStopped)
            }
        }
        guard owner != nil else { return }
        do {
            try await registerAgent()
        } catch {
            log(.warning, "cannot register the pairing agent with BlueZ: \(error); trying again at the next pairing")
        }
        await repairInterruptedPairings()
    }

    /// Registers our agent with the running BlueZ (and makes it the default one when configured).
    /// - Throws: ``PairingFailure`` when BlueZ is not running or refuses.
    func registerAgent() async throws {
        guard let owner = blueZOwner else {
            throw PairingFailure.blueZNotRunning(action: nil)
        }
        guard agentRegisteredWith != owner else { return }
        do {
            try await agentManager.call(
                BlueZ.Method.registerAgent,
                [.objectPath(options.agentPath), .string(PairingAgent.capability)],
                timeout: options.callTimeout)
        } catch let error as DBusError where error.name == BlueZ.Error.alreadyExists {
            // Registered already by this connection (a concurrent attempt won): that is what we want.
        } catch {
            throw PairingFailure.blueZ(error, while: "register the pairing agent")
        }
        if options.requestDefaultAgent {
            do {
                try await agentManager.call(
                    BlueZ.Method.requestDefaultAgent, [.objectPath(options.agentPath)],
                    timeout: options.callTimeout)
            } catch {
                log(.warning, "BlueZ did not make kblinkd's agent the default one: \(error)")
            }
        }
        guard blueZOwner == owner else { return }
        agentRegisteredWith = owner
        log(
            .info,
            "pairing agent registered with BlueZ (\(PairingAgent.capability)\(options.requestDefaultAgent ? ", default" : ""))"
        )
    }

    /// Repairs the devices whose pairing was cut short by BlueZ stopping, now that it is back.
    private func repairInterruptedPairings() async {
        for address in Array(pendingRepairs.keys) {
            await repairPending(address)
        }
    }

    /// Undoes what an interrupted pairing of `address` left, if BlueZ can be asked; keeps it for later if not.
    func repairPending(_ address: BluetoothAddress) async {
        guard let pending = pendingRepairs[address] else { return }
        let now: PairingDeviceFlags
        do {
            now = PairingDeviceFlags(properties: try await deviceProxy(pending.path).allProperties().values)
        } catch let error as DBusError
            where error.name == .unknownObject || error.name == .unknownMethod || error.name == .unknownInterface
            || error.name == BlueZ.Error.doesNotExist
        {
            // BlueZ no longer knows the device: nothing is left of the pairing.
            pendingRepairs[address] = nil
            return
        } catch {
            return
        }
        guard pendingRepairs[address] != nil else { return }
        pendingRepairs[address] = nil
        await perform(PairingRepair.repairs(before: pending.before, now: now), on: pending.path, address: address)
    }

    // MARK: Helpers

    func deviceProxy(_ path: ObjectPath) -> DBusProxy {
        DBusProxy(connection: connection, destination: BlueZ.service, path: path, interface: BlueZ.deviceInterface)
    }

    func adapterProxy(_ path: ObjectPath) -> DBusProxy {
        DBusProxy(connection: connection, destination: BlueZ.service, path: path, interface: BlueZ.adapterInterface)
    }

    /// Carries out repairs; failures are logged, since there is nothing better to do with them.
    func perform(_ repairs: [PairingRepair], on path: ObjectPath, address: BluetoothAddress) async {
        for repair in repairs {
            do {
                switch repair {
                case .cancelPairing:
                    try await deviceProxy(path).call(BlueZ.Method.cancelPairing, timeout: options.callTimeout)
                case .removeDevice:
                    guard let adapter = path.parent else { continue }
                    try await adapterProxy(adapter).call(
                        BlueZ.Method.removeDevice, [.objectPath(path)], timeout: options.callTimeout)
                    log(.notice, "removed the unfinished pairing of \(address)")
                case .setTrusted(let trusted):
                    try await deviceProxy(path).setProperty(BlueZ.Property.trusted, to: .boolean(trusted))
                }
            } catch let error as DBusError where repair == .cancelPairing && error.name == BlueZ.Error.doesNotExist {
                // BlueZ had finished pairing already.
            } catch {
                log(.warning, "could not undo the pairing of \(address) (\(repair)): \(error)")
            }
        }
    }
}
