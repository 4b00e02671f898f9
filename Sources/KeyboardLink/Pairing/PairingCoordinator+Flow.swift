import KeyboardLinkBlueZ
import KeyboardLinkDBus

extension PairingCoordinator {
    /// Pairs, trusts and connects the device at `address`; returns once it is all three.
    ///
    /// Discovers first when BlueZ does not know the device. Prompts are raised as ``Event/prompt(_:address:caller:)``
    /// while this runs; ``Event/finished(address:name:failure:caller:)`` is raised before it returns or throws. On failure nothing is left half-done:
    /// a device this pairing bonded is removed again, and one it trusted is untrusted.
    /// - Parameters:
    ///   - caller: who asked; the pairing is canceled if it leaves the bus.
    ///   - discoveryTimeout: how long to look for a device BlueZ does not know.
    /// - Throws: ``PairingFailure``: `alreadyPairing` when this device is being paired already, otherwise `ended`
    ///   with what stopped the flow (discovery did not find it, canceled, the passkey was rejected, ...).
    package func pair(_ address: BluetoothAddress, caller: BusName?, discoveryTimeout: Duration) async throws {
        if let running = sessions[address] {
            throw PairingFailure.alreadyPairing(name: running.name, step: running.step)
        }
        nextSessionID += 1
        let id = nextSessionID
        // The session is in place before the first suspension, so a concurrent Pair sees it and gets Busy.
        sessions[address] = PairingSession(id: id, address: address, caller: caller, name: address.description)
        let task = Task { try await self.flow(address, discoveryTimeout: discoveryTimeout) }
        sessions[address]?.task = task
        let callerWatch = caller.map { watch(caller: $0, address: address, id: id) }
        let result = await task.result
        callerWatch?.cancel()
        let name = sessions[address]?.name ?? address.description
        var failure: PairingFailure?
        switch result {
        case .success:
            log(.notice, "paired \(address)")
        case .failure(let error):
            let ended =
                error as? PairingFailure
                ?? .ended(
                    error, reason: nil,
                    context: PairingFailure.Context(name: address.description, address: address, step: .starting))
            // Logged by the service with the message it publishes (its mapping of the failure).
            failure = ended
        }
        // Raised before the session ends, so a new pairing of the same keyboard never sees this one's end.
        dropQuestion(about: address)
        await raise(.finished(address: address, name: name, failure: failure, caller: caller))
        if sessions[address]?.id == id { sessions[address] = nil }
        try result.get()
    }

    /// Cancels the pairing of `address` at whatever step it is, and returns once it has ended and been undone.
    ///
    /// Only the connection that called `Pair` may cancel its pairing, or one that `isPrivileged` accepts (root):
    /// being allowed to pair (polkit's `org.kblink1.pair`) is not being allowed to end someone else's pairing.
    /// - Parameters:
    ///   - sender: who asks.
    ///   - isPrivileged: whether a sender that is not the `Pair` caller may cancel anyway; asked only then.
    /// - Throws: ``PairingFailure/notPairing(_:)`` when no pairing of that device is running (or it ended while
    ///   `isPrivileged` was asked), ``PairingFailure/notThePairCallerToCancel(_:)`` when `sender` may not cancel it.
    package func cancel(
        _ address: BluetoothAddress, from sender: BusName?, isPrivileged: @Sendable (BusName) async -> Bool
    ) async throws {
        guard let session = sessions[address] else {
            throw PairingFailure.notPairing(address)
        }
        if sender != session.caller {
            guard let sender, await isPrivileged(sender) else {
                throw PairingFailure.notThePairCallerToCancel(address)
            }
            // The actor ran other work while the question was out: this must still be the same pairing.
            guard sessions[address]?.id == session.id else { throw PairingFailure.notPairing(address) }
        }
        requestEnd(address, reason: .canceledByUser)
        _ = await session.task?.result
    }

    /// Marks a pairing as stopped from outside and cancels its flow; the flow undoes what it did.
    func requestEnd(_ address: BluetoothAddress, reason: PairingEndReason) {
        guard var session = sessions[address] else { return }
        dropQuestion(about: address)
        if session.endReason == nil { session.endReason = reason }
        sessions[address] = session
        session.task?.cancel()
    }

    /// Cancels the pairing when the program that asked for it leaves the bus.
    private func watch(caller: BusName, address: BluetoothAddress, id: UInt64) -> Task<Void, Never> {
        Task { [weak self] in
            guard let self, let owners = try? await self.connection.ownerChanges(of: caller) else { return }
            for await owner in owners where owner == nil {
                await self.callerLeft(address: address, id: id)
                return
            }
        }
    }

    private func callerLeft(address: BluetoothAddress, id: UInt64) {
        guard sessions[address]?.id == id else { return }
        log(.notice, "the program pairing \(address) left the bus: canceling")
        requestEnd(address, reason: .callerLeft)
    }

    func update(_ address: BluetoothAddress, _ change: (inout PairingSession) -> Void) {
        guard var session = sessions[address] else { return }
        change(&session)
        sessions[address] = session
    }

    // MARK: The flow

    private func flow(_ address: BluetoothAddress, discoveryTimeout: Duration) async throws {
        do {
            try await steps(address, discoveryTimeout: discoveryTimeout)
        } catch {
            // This task may be canceled, and the undo must still reach BlueZ: it runs in a task of its own.
            let failure = await Task { await self.endFailed(address, error: error) }.value
            throw failure
        }
    }

    private func steps(_ address: BluetoothAddress, discoveryTimeout: Duration) async throws {
        guard let owner = blueZOwner else {
            throw PairingFailure.blueZNotRunning(action: "pair")
        }
        update(address) { $0.blueZOwner = owner }
        if pendingRepairs[address] != nil {
            // An earlier pairing of this keyboard was cut short by BlueZ stopping: finish its undo first.
            await repairPending(address)
        }
        var found = await device(at: address)
        if let found { update(address) { $0.name = found.alias } }
        if found == nil {
            found = try await discover(address, timeout: discoveryTimeout)
        }
        guard let device = found else { throw PairingFailure.unknownDevice(address) }
        try Task.checkCancellation()
        guard device.isKeyboard else {
            throw PairingFailure.notAKeyboard(name: device.alias, address: address)
        }
        let path = device.path
        let proxy = deviceProxy(path)
        // The state to return to comes from BlueZ itself, not from the model, which may lag a little.
        let before = PairingDeviceFlags(properties: try await proxy.allProperties().values)
        update(address) {
            $0.devicePath = path
            $0.before = before
            $0.name = device.alias
        }
        try Task.checkCancellation()

        if !before.paired {
            try await registerAgent()
            update(address) {
                $0.step = .pairing
                $0.pairCallRunning = true
            }
            do {
                try await proxy.call(BlueZ.Method.pair, timeout: options.pairTimeout)
                update(address) { $0.pairCallRunning = false }
            } catch is CancellationError {
                // We stopped waiting; BlueZ may still be pairing: the undo cancels it there.
                throw CancellationError()
            } catch {
                update(address) { $0.pairCallRunning = false }
                throw error
            }
        }
        try Task.checkCancellation()

        update(address) { $0.step = .trusting }
        if !before.trusted {
            try await proxy.setProperty(BlueZ.Property.trusted, to: .boolean(true))
        }
        try Task.checkCancellation()

        update(address) { $0.step = .connecting }
        do {
            try await proxy.call(BlueZ.Method.connect, timeout: options.connectTimeout)
        } catch let error as DBusError where error.name == BlueZ.Error.alreadyConnected {
            // Keyboards often connect by themselves right after pairing.
        }
        try Task.checkCancellation()

        update(address) { $0.step = .finishing }
        // BlueZ announces the changes as signals (which the model follows) and answers GetAll: either showing
        // the keyboard paired, trusted and connected is enough.
        let settled = try await waitForDevice(address, timeout: options.settleTimeout) {
            PairingDeviceFlags(paired: $0.paired, trusted: $0.trusted, connected: $0.connected).isComplete
        }
        if settled == nil {
            let now = PairingDeviceFlags(properties: try await proxy.allProperties().values)
            guard now.isComplete else {
                throw PairingFailure.unsettled(name: device.alias, address: address, flags: now)
            }
        }
        try Task.checkCancellation()
    }

    /// Undoes what the pairing did and says why it failed.
    private func endFailed(_ address: BluetoothAddress, error: Error) async -> PairingFailure {
        guard var session = sessions[address] else {
            return .ended(
                error, reason: nil,
                context: PairingFailure.Context(name: address.description, address: address, step: .starting))
        }
        if session.endReason == nil, let owner = session.blueZOwner,
            (try? await connection.nameOwner(of: BlueZ.service)) != owner
        {
            // BlueZ left (or was replaced) before we heard about it: that is the cause, not the error it caused.
            update(address) { $0.endReason = .blueZStopped }
            session.endReason = .blueZStopped
        }
        if let path = session.devicePath, let before = session.before {
            if session.endReason == .blueZStopped {
                pendingRepairs[address] = (path, before)
                if blueZOwner != nil, blueZOwner != session.blueZOwner {
                    // It is back already: repair now rather than at the next restart.
                    await repairPending(address)
                }
            } else {
                await undo(session, path: path, before: before)
            }
        }
        return .ended(error, reason: session.endReason, context: session.failureContext)
    }

    private func undo(_ session: PairingSession, path: ObjectPath, before: PairingDeviceFlags) async {
        if PairingRepair.needsCancel(step: session.step, pairCallRunning: session.pairCallRunning) {
            await perform([.cancelPairing], on: path, address: session.address)
        }
        do {
            let now = PairingDeviceFlags(properties: try await deviceProxy(path).allProperties().values)
            await perform(PairingRepair.repairs(before: before, now: now), on: path, address: session.address)
        } catch {
            pendingRepairs[session.address] = (path, before)
            log(.warning, "cannot read \(session.address) to undo its pairing now (\(error)); will retry")
        }
    }

    // MARK: Devices and discovery

    func device(at address: BluetoothAddress) async -> BlueZDevice? {
        Self.find(address, in: await model.current())
    }

    package static func find(_ address: BluetoothAddress, in snapshot: BlueZModel.Snapshot) -> BlueZDevice? {
        snapshot.devices.values.filter { BluetoothAddress(validating: $0.address) == address }.min { $0.path < $1.path }
    }

    /// Scans until the device appears, for at most `timeout`; stops the scans it started in every case.
    private func discover(_ address: BluetoothAddress, timeout: Duration) async throws -> BlueZDevice {
        update(address) { $0.step = .discovering }
        let snapshot = await model.current()
        let powered = snapshot.adapters.values.filter(\.powered).sorted { $0.path < $1.path }
        guard !powered.isEmpty else {
            throw snapshot.adapters.isEmpty
                ? PairingFailure.noAdapter(looking: address) : PairingFailure.adapterOff(looking: address)
        }
        log(.info, "looking for \(address) before pairing")
        var started: [ObjectPath] = []
        do {
            for adapter in powered where !adapter.discovering {
                do {
                    try await adapterProxy(adapter.path).call(
                        BlueZ.Method.startDiscovery, timeout: options.callTimeout)
                    started.append(adapter.path)
                } catch let error as DBusError where error.name == BlueZ.Error.inProgress {
                    // Someone (maybe our own scan) is discovering on it already: not ours to stop.
                } catch is CancellationError {
                    // Canceled while BlueZ was starting the scan: it may well have started.
                    started.append(adapter.path)
                    throw CancellationError()
                }
            }
            let found = try await waitForDevice(address, timeout: timeout) { _ in true }
            await stopDiscovery(started)
            guard let found else {
                throw PairingFailure.notFound(address, timeout: timeout)
            }
            return found
        } catch let error as PairingFailure {
            await stopDiscovery(started)
            throw error
        } catch is CancellationError {
            await stopDiscovery(started)
            throw CancellationError()
        } catch {
            await stopDiscovery(started)
            throw PairingFailure.blueZ(error, while: "look for \(address)")
        }
    }

    /// Stops the scans we started, even when the flow was canceled.
    private func stopDiscovery(_ adapters: [ObjectPath]) async {
        guard !adapters.isEmpty else { return }
        await Task {
            for adapter in adapters {
                _ = try? await self.adapterProxy(adapter).call(
                    BlueZ.Method.stopDiscovery, timeout: self.options.callTimeout)
            }
        }.value
    }

    /// The device once the model has it in a state that satisfies `condition`, or nil after `timeout`.
    private func waitForDevice(
        _ address: BluetoothAddress, timeout: Duration, until condition: @escaping @Sendable (BlueZDevice) -> Bool
    ) async throws -> BlueZDevice? {
        let updates = await model.updates()
        return try await withThrowingTaskGroup(of: BlueZDevice?.self) { group in
            group.addTask {
                for await update in updates {
                    if let device = Self.find(address, in: update.snapshot), condition(device) { return device }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let result = try await group.next() ?? nil
            group.cancelAll()
            try Task.checkCancellation()
            return result
        }
    }
}
