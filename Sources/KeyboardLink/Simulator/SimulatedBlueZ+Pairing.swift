import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// Pairing the way bluetoothd does it: `Device1.Pair` talks to the agent registered by the caller's connection
/// (else the default agent) in the manner of each ``SimulatedDevice/PairingBehavior``, `Device1.CancelPairing`
/// ends it, and a killed BlueZ drops it.
extension SimulatedBlueZ {
    /// How fast the simulated pairings go; shorten them in tests.
    package struct PairingTimings: Sendable, Equatable {
        /// Between two digits typed on the keyboard, and before the final Enter.
        package var keypress: Duration = .milliseconds(300)
        /// How long BlueZ waits for a keyboard that never answers before `AuthenticationTimeout`.
        package var authenticationTimeout: Duration = .seconds(30)
        /// How long BlueZ waits for an agent to answer a request.
        package var agentTimeout: Duration = .seconds(30)

        /// The default, human-paced timings.
        package init() {}

        /// Timings for tests: fast typing and a short timeout.
        package static var fast: PairingTimings {
            var timings = PairingTimings()
            timings.keypress = .milliseconds(100)
            timings.authenticationTimeout = .seconds(1)
            timings.agentTimeout = .seconds(5)
            return timings
        }
    }

    /// One call the simulated BlueZ made to an agent, and how it went.
    package struct AgentCall: Sendable, Equatable {
        /// The connection the agent is registered by.
        package var agent: BusName
        /// The `org.bluez.Agent1` member called.
        package var member: String
        /// The arguments sent.
        package var arguments: [DBusValue]
        /// `sent` for calls that expect no reply (`DisplayPasskey`, `Cancel`), `ok`, or the error name.
        package var outcome: String
    }

    /// A pairing in progress.
    struct Pairing {
        let id: UInt64
        let task: Task<Result<Void, DBusError>, Never>
        /// `Device1.CancelPairing` asked for the end (a killed BlueZ calls no agent).
        var canceledOnRequest = false
    }

    typealias AgentAddress = (owner: BusName, path: ObjectPath)

    // MARK: Scripting and inspection

    /// Sets how fast pairings go.
    package func setPairingTimings(_ timings: PairingTimings) {
        pairingTimings = timings
    }

    /// Every call made to an agent so far, in order.
    package var agentCalls: [AgentCall] { agentLog }

    /// The registered agents, by the connection that registered each.
    package var registeredAgents: [BusName: ObjectPath] { agents.mapValues(\.path) }

    /// The connection whose agent is the default one.
    package var defaultAgentOwner: BusName? { defaultAgent }

    /// The devices being paired now.
    package var pairingsInProgress: [BluetoothAddress] { pairings.keys.sorted() }

    /// Calls an agent as bluetoothd would, outside any pairing (to check what it answers about other devices).
    /// - Returns: the agent's reply values.
    /// - Throws: ``DBusError`` from the agent, or `DoesNotExist` when `owner` registered no agent.
    package func callAgent(of owner: BusName, _ member: MemberName, _ arguments: [DBusValue]) async throws
        -> [DBusValue]
    {
        guard let agent = agents[owner] else {
            throw DBusError(BlueZ.Error.doesNotExist, "no agent is registered by \(owner)")
        }
        return try await callAgentRecorded((owner, agent.path), member, arguments)
    }

    // MARK: Device1.Pair and Device1.CancelPairing

    /// `Device1.Pair`: returns once the device is paired, or throws BlueZ's error.
    func pair(_ address: BluetoothAddress, caller: BusName?) async throws {
        guard let entry = entries[address] else { throw DBusError(BlueZ.Error.doesNotExist, "Does Not Exist") }
        guard !entry.device.paired else { throw DBusError(BlueZ.Error.alreadyExists, "Already Exists") }
        guard pairings[address] == nil else { throw DBusError(BlueZ.Error.inProgress, "In Progress") }
        let agent = agentAddress(for: caller)
        let path = address.devicePath(adapter: entry.adapter)
        nextPairingID += 1
        let id = nextPairingID
        let device = entry.device
        let task = Task { await self.converse(device, at: path, agent: agent, id: id) }
        pairings[address] = Pairing(id: id, task: task)
        let result = await task.value
        if pairings[address]?.id == id { pairings[address] = nil }
        try result.get()
    }

    /// `Device1.CancelPairing`: ends a running pairing (its `Pair` fails with `AuthenticationCanceled`) and
    /// tells the agent with `Cancel()`; returns once the pairing has ended.
    func cancelPairing(_ address: BluetoothAddress) async throws {
        guard entries[address] != nil else { throw DBusError(BlueZ.Error.doesNotExist, "Does Not Exist") }
        guard var pairing = pairings[address] else {
            throw DBusError(BlueZ.Error.doesNotExist, "No pairing in progress")
        }
        pairing.canceledOnRequest = true
        pairings[address] = pairing
        pairing.task.cancel()
        _ = await pairing.task.value
    }

    /// Drops every pairing at once, as a crashing bluetoothd does (no agent is told).
    func abortPairings() {
        for pairing in pairings.values { pairing.task.cancel() }
        pairings.removeAll()
    }

    /// The agent of the connection that called `Pair`, else the default agent (bluetoothd's `agent_get`).
    private func agentAddress(for caller: BusName?) -> AgentAddress? {
        if let caller, let agent = agents[caller] { return (caller, agent.path) }
        if let owner = defaultAgent, let agent = agents[owner] { return (owner, agent.path) }
        return nil
    }

    // MARK: The conversation

    private func converse(_ device: SimulatedDevice, at path: ObjectPath, agent: AgentAddress?, id: UInt64) async
        -> Result<Void, DBusError>
    {
        let timings = pairingTimings
        do {
            switch device.pairing {
            case .justWorks:
                try await Task.sleep(for: timings.keypress)
            case .typesPasskey(let passkey):
                try await typePasskey(passkey, device: path, agent: try require(agent), timings: timings)
            case .requestsPinCode:
                let reply = try await requestAgent(try require(agent), "RequestPinCode", [.objectPath(path)])
                guard let pin = reply.first?.stringValue, pin.utf8.count == 6,
                    pin.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                else {
                    return .failure(DBusError(BlueZ.Error.authenticationFailed, "Authentication Failed"))
                }
                // The person types the PIN, then Enter.
                try await Task.sleep(for: timings.keypress)
            case .comparesPasskey(let passkey):
                // An error answer (no) fails the pairing, as in requestAgent.
                _ = try await requestAgent(
                    try require(agent), "RequestConfirmation", [.objectPath(path), .uint32(passkey)])
            case .asksAuthorization:
                _ = try await requestAgent(try require(agent), "RequestAuthorization", [.objectPath(path)])
            case .failsAuthentication:
                try await typePasskey(
                    Self.passkey(for: device.address), device: path, agent: try require(agent), timings: timings)
                return .failure(DBusError(BlueZ.Error.authenticationFailed, "Authentication Failed"))
            case .neverAnswers:
                try await Task.sleep(for: timings.authenticationTimeout)
                return .failure(DBusError(BlueZ.Error.authenticationTimeout, "Authentication Timeout"))
            }
            try Task.checkCancellation()
            try await update(device.address) { $0.paired = true }
            // A classic HID keyboard opens its HID channels right after bonding; bluetoothd asks the agent to
            // authorize the service while the device is not trusted yet.
            if let agent, !device.trusted, device.uuids.contains(SimulatedDevice.hid) {
                _ = try? await requestAgent(
                    agent, "AuthorizeService", [.objectPath(path), .string(SimulatedDevice.hid)])
            }
            return .success(())
        } catch is CancellationError {
            if let agent, pairings[device.address]?.id == id, pairings[device.address]?.canceledOnRequest == true {
                await notifyAgent(agent, "Cancel", [])
            }
            return .failure(DBusError(BlueZ.Error.authenticationCanceled, "Authentication Canceled"))
        } catch let error as DBusError {
            return .failure(error)
        } catch {
            return .failure(DBusError(BlueZ.Error.failed, "\(error)"))
        }
    }

    /// What the keyboard does for passkey entry: BlueZ shows the passkey, then again as each digit is typed.
    private func typePasskey(_ passkey: UInt32, device: ObjectPath, agent: AgentAddress, timings: PairingTimings)
        async throws
    {
        await notifyAgent(agent, "DisplayPasskey", [.objectPath(device), .uint32(passkey), .uint16(0)])
        for entered in UInt16(1)...6 {
            try await Task.sleep(for: timings.keypress)
            await notifyAgent(agent, "DisplayPasskey", [.objectPath(device), .uint32(passkey), .uint16(entered)])
        }
        try await Task.sleep(for: timings.keypress)
    }

    /// With no agent, bluetoothd cannot ask anybody and the pairing is rejected.
    private func require(_ agent: AgentAddress?) throws -> AgentAddress {
        guard let agent else { throw DBusError(BlueZ.Error.authenticationRejected, "Authentication Rejected") }
        return agent
    }

    /// A passkey that depends only on the address (for keyboards whose behaviour gives none).
    static func passkey(for address: BluetoothAddress) -> UInt32 {
        address.bytes.suffix(3).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
    }

    /// Sends an agent call that expects no reply, as bluetoothd sends `DisplayPasskey` and `Cancel`.
    private func notifyAgent(_ agent: AgentAddress, _ member: MemberName, _ arguments: [DBusValue]) async {
        guard let connection else { return }
        var message = Message.methodCall(
            destination: agent.owner, path: agent.path, interface: BlueZ.agentInterface,
            member: member, body: arguments)
        message.noReplyExpected = true
        let outcome: String
        do {
            try await connection.send(message)
            outcome = "sent"
        } catch let error as DBusError {
            outcome = error.name.rawValue
        } catch {
            outcome = "\(error)"
        }
        agentLog.append(AgentCall(agent: agent.owner, member: member.rawValue, arguments: arguments, outcome: outcome))
    }

    /// Calls the agent, waits for its answer and records the outcome.
    private func callAgentRecorded(_ agent: AgentAddress, _ member: MemberName, _ arguments: [DBusValue]) async throws
        -> [DBusValue]
    {
        guard let connection else { throw DBusError.disconnected("the simulated BlueZ is not running") }
        do {
            let reply = try await connection.call(
                destination: agent.owner, path: agent.path, interface: BlueZ.agentInterface,
                member: member, arguments, timeout: pairingTimings.agentTimeout)
            agentLog.append(AgentCall(agent: agent.owner, member: member.rawValue, arguments: arguments, outcome: "ok"))
            return reply.body
        } catch let error as DBusError {
            agentLog.append(
                AgentCall(
                    agent: agent.owner, member: member.rawValue, arguments: arguments, outcome: error.name.rawValue))
            throw error
        }
    }

    /// Calls the agent during a pairing; its refusals become the errors bluetoothd gives `Pair`.
    private func requestAgent(_ agent: AgentAddress, _ member: MemberName, _ arguments: [DBusValue]) async throws
        -> [DBusValue]
    {
        do {
            return try await callAgentRecorded(agent, member, arguments)
        } catch let error as DBusError {
            switch error.name {
            case BlueZ.Error.rejected: throw DBusError(BlueZ.Error.authenticationRejected, "Authentication Rejected")
            case BlueZ.Error.canceled: throw DBusError(BlueZ.Error.authenticationCanceled, "Authentication Canceled")
            case .noReply, .timedOut: throw DBusError(BlueZ.Error.authenticationTimeout, "Authentication Timeout")
            default: throw DBusError(BlueZ.Error.authenticationFailed, "Authentication Failed")
            }
        }
    }
}
