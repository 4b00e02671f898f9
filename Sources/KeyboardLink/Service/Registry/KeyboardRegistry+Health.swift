import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkPresence
import KeyboardLinkSupport

/// Health: each keyboard's ``HealthLadder`` fed from BlueZ's model and the evdev keyboards, its timers, and the
/// steps it asks for run through BlueZ (docs/health.md).
extension KeyboardRegistry {
    /// HID over GATT, an LE keyboard's input service.
    static let hogpUUID = "00001812-0000-1000-8000-00805f9b34fb"
    /// Classic HID: the UUID `Device1.ConnectProfile` is given (only classic keyboards get that step).
    static let hidUUID = "00001124-0000-1000-8000-00805f9b34fb"

    /// Whether `device` is an LE keyboard (HID over GATT): HOGP among its UUIDs and no classic HID, or, with
    /// neither listed (an LE keyboard that came up without its HID service), an `Appearance` and no `Class`
    /// (bluetoothd shows `Class` only for a device it met over BR/EDR, and neither when it is 0).
    static func isLowEnergy(_ device: BlueZDevice) -> Bool {
        let uuids = Set(device.uuids.map { $0.lowercased() })
        if uuids.contains(hidUUID) { return false }
        if uuids.contains(hogpUUID) { return true }
        return (device.appearance ?? 0) != 0 && (device.classOfDevice ?? 0) == 0
    }

    /// What the ladder sees of `device` now.
    func healthObservation(of device: BlueZDevice) -> HealthObservation {
        let address = BluetoothAddress(validating: device.address)
        let isLE = Self.isLowEnergy(device)
        // Its input device follows service discovery when it has HID over GATT (a dual-mode keyboard too).
        let waitsForServices = isLE || device.uuids.contains { $0.lowercased() == Self.hogpUUID }
        // Any input node with its address, keyboard rule or not: a numeric keypad that types is working.
        let hasInputDevice = address.map(presenceTracker.hasInputDevice(for:)) ?? false
        // Until the evdev feed reported the input devices, a connected keyboard is taken to be working.
        return HealthObservation(
            connected: device.connected, linkUp: device.connected && (device.servicesResolved || !waitsForServices),
            hasInputDevice: hasInputDevice, inputDevicesWatched: presenceTracker.inputDevicesReported,
            paired: device.paired, trusted: device.trusted, lowEnergy: isLE)
    }

    /// Feeds the keyboard's ladder what BlueZ shows now and copies its health into `state` (during a
    /// reconciliation, before the properties are published).
    func applyHealth(to state: inout KeyboardState, device: BlueZDevice) {
        let address = state.address
        var record = healthRecords[address] ?? KeyboardHealthRecord(ladder: HealthLadder(settings: healthSettings))
        if systemSleeping {
            // Seen (for the words of Health), not acted on: the ladder stays suspended until the resume.
            if record.ladder.phase != .suspended { _ = record.ladder.suspend() }
            record.ladder.note(healthObservation(of: device))
            healthRecords[address] = record
        } else {
            let output = record.ladder.observe(healthObservation(of: device), now: .now)
            healthRecords[address] = record
            handle(output, of: address, alias: state.alias)
        }
        copyHealth(of: address, into: &state)
    }

    /// Feeds every ladder again (the input devices changed) and publishes the keyboards whose health changed.
    func refreshHealth() async {
        for known in keyboards.sorted(by: { $0.key < $1.key }).map(\.value) {
            guard let device = snapshot.devices[known.devicePath] else { continue }
            var state = known
            applyHealth(to: &state, device: device)
            await publishHealth(of: state, was: known)
        }
    }

    /// Ends healing of a keyboard because the user disconnected or forgot it, or pairs it.
    func cancelHealing(_ address: BluetoothAddress, _ cancellation: HealthLadder.Cancellation) async {
        guard var record = healthRecords[address], let known = keyboards[address] else { return }
        let output = record.ladder.cancel(cancellation)
        record.stepTask?.cancel()
        record.stepTask = nil
        healthRecords[address] = record
        handle(output, of: address, alias: known.alias)
        var state = known
        copyHealth(of: address, into: &state)
        await publishHealth(of: state, was: known)
    }

    /// Whether a keyboard's health still has something to do: a timer set or a step running.
    /// Whether the input-device monitor has reported once.
    var inputDevicesReported: Bool { presenceTracker.inputDevicesReported }

    func healthIsPending(_ address: BluetoothAddress) -> Bool {
        guard let record = healthRecords[address] else { return false }
        return record.ladder.wakeAt != nil || record.stepTask != nil
    }

    /// logind's `PrepareForSleep`: going to sleep stops every timer and step; after the resume every keyboard is
    /// expected back with a whole budget, healed if it comes back without its input device.
    func prepareForSleep(_ sleeping: Bool) async {
        guard sleeping != systemSleeping else { return }
        systemSleeping = sleeping
        log(.info, sleeping ? "the computer is going to sleep: healing paused" : "the computer resumed")
        for address in Array(healthRecords.keys).sorted() {
            guard var record = healthRecords[address] else { continue }
            if sleeping {
                let output = record.ladder.suspend()
                record.stepTask?.cancel()
                record.stepTask = nil
                healthRecords[address] = record
                handle(output, of: address, alias: keyboards[address]?.alias ?? address.description)
            } else {
                record.ladder.resume()
                healthRecords[address] = record
            }
        }
        await refreshHealth()
        await publishPresence()
    }

    /// Drops a keyboard's ladder (it is no longer exported).
    func forgetHealth(_ address: BluetoothAddress) {
        guard let record = healthRecords.removeValue(forKey: address) else { return }
        record.timer?.cancel()
        record.stepTask?.cancel()
    }

    /// Stops every timer and step (kblinkd stopping).
    func stopHealing() {
        for address in Array(healthRecords.keys) { forgetHealth(address) }
    }

    /// Applies new `[Health]` settings: to the ladders too (their next step and deadline use them).
    func reconfigureHealth(_ settings: HealthSettings) {
        healthSettings = settings
        for address in Array(healthRecords.keys) { healthRecords[address]?.ladder.settings = settings }
    }

    // MARK: Driving the ladder

    private func copyHealth(of address: BluetoothAddress, into state: inout KeyboardState) {
        guard let record = healthRecords[address] else { return }
        state.health = record.ladder.health
        state.healthDetail = record.ladder.detail
        state.heals = record.heals
        state.reconnectTimes = record.reconnectTimes
    }

    private func publishHealth(of state: KeyboardState, was known: KeyboardState) async {
        guard state != known, keyboards[state.address] != nil else { return }
        keyboards[state.address] = state
        await updateProperties(of: state)
        if state.health != known.health { await publishPresence() }
    }

    /// Records what a transition produced, starts the step it asks for and sets the timer again.
    private func handle(_ output: HealthLadder.Output, of address: BluetoothAddress, alias: String) {
        let now = WallClockTime.now().secondsSince1970
        for line in output.journal {
            log(line.hasPrefix("failed:") ? .warning : .notice, "health of \(alias) (\(address)): \(line)")
        }
        if var record = healthRecords[address] {
            record.heals += output.ended.map { HealRecord(time: now, step: $0.step.rawValue, outcome: $0.outcome) }
            record.heals = Array(record.heals.suffix(KeyboardHealthRecord.healsKept))
            if let time = output.reconnectTime {
                let milliseconds = time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000
                record.reconnectTimes.append(UInt32(clamping: milliseconds))
                record.reconnectTimes = Array(record.reconnectTimes.suffix(KeyboardHealthRecord.reconnectTimesKept))
            }
            healthRecords[address] = record
        }
        if let step = output.run, healthRecords[address] != nil {
            healthRecords[address]?.stepSerial &+= 1
            let serial = healthRecords[address]?.stepSerial ?? 0
            healthRecords[address]?.stepTask = Task { [weak self] in
                let error = await self?.run(step, on: address)
                await self?.healStepReturned(address, step, serial: serial, error: error)
            }
        }
        scheduleHealthTimer(address)
    }

    private func scheduleHealthTimer(_ address: BluetoothAddress) {
        guard var record = healthRecords[address] else { return }
        record.timer?.cancel()
        record.timer = nil
        if let wakeAt = record.ladder.wakeAt {
            record.timer = Task { [weak self] in
                guard (try? await Task.sleep(until: wakeAt, clock: .continuous)) != nil else { return }
                await self?.healthTimerFired(address)
            }
        }
        healthRecords[address] = record
    }

    private func healthTimerFired(_ address: BluetoothAddress) async {
        guard var record = healthRecords[address], let known = keyboards[address] else { return }
        let output = record.ladder.timerFired(now: .now)
        healthRecords[address] = record
        await afterTransition(output, of: address, known: known)
    }

    private func healStepReturned(_ address: BluetoothAddress, _ step: HealStep, serial: UInt64, error: String?) async {
        // A step canceled (by the user, the sleep) may return after the next one started: that one's handle stays.
        guard var record = healthRecords[address], record.stepSerial == serial, let known = keyboards[address] else {
            return
        }
        record.stepTask = nil
        var output = record.ladder.stepReturned(step, error: error, now: .now)
        healthRecords[address] = record
        // The input device may have appeared while the step ran.
        if error == nil, let device = snapshot.devices[known.devicePath] {
            let observed = healthRecords[address]?.ladder.observe(healthObservation(of: device), now: .now)
            if let observed {
                output.ended += observed.ended
                output.journal += observed.journal
                output.reconnectTime = observed.reconnectTime ?? output.reconnectTime
            }
        }
        await afterTransition(output, of: address, known: known)
    }

    private func afterTransition(_ output: HealthLadder.Output, of address: BluetoothAddress, known: KeyboardState)
        async
    {
        handle(output, of: address, alias: known.alias)
        guard var state = keyboards[address] else { return }
        copyHealth(of: address, into: &state)
        await publishHealth(of: state, was: known)
    }

    // MARK: The steps

    /// Runs a step; nil when BlueZ accepted it, else what went wrong. A step that disconnects the keyboard first
    /// waits for a push, pull, re-apply or read of its firmware to end (``KeyboardPushes``), then runs only if the
    /// ladder still wants it (the input device may have appeared meanwhile, the link gone down, or the user canceled
    /// healing).
    private func run(_ step: HealStep, on address: BluetoothAddress) async -> String? {
        guard step.disconnects else {
            healthRecords[address]?.ladder.stepCalls(step)
            return await perform(step, on: address)
        }
        let waited = await pushes.beginHeal(address)
        let outcome: String?
        if !Task.isCancelled, healthRecords[address]?.ladder.phase == .running(step) {
            healthRecords[address]?.ladder.stepCalls(step)
            if waited {
                log(
                    .info,
                    "health of \(keyboards[address]?.alias ?? address.description) (\(address)): \(step.doing) after "
                        + "the firmware session that held the keyboard ended")
            }
            outcome = await perform(step, on: address)
        } else {
            outcome = "skipped: no longer needed"
        }
        await pushes.end(address)
        return outcome
    }

    /// Runs a step through BlueZ; nil when BlueZ accepted it, else what went wrong.
    private func perform(_ step: HealStep, on address: BluetoothAddress) async -> String? {
        guard let state = keyboards[address], let device = snapshot.devices[state.devicePath] else {
            return "BlueZ no longer knows the keyboard"
        }
        let proxy = deviceProxy(state)
        do {
            switch step {
            case .connectProfile:
                // Classic keyboards only: the ladder of an LE one has no such step.
                try await proxy.call(BlueZ.Method.connectProfile, [.string(Self.hidUUID)], timeout: .seconds(30))
            case .reconnect:
                do {
                    try await proxy.call(BlueZ.Method.disconnect, timeout: .seconds(30))
                } catch let error as DBusError where error.name == BlueZ.Error.notConnected {
                }
                try await connectAgain(proxy)
            case .powerCycleAdapter:
                guard let adapter = device.adapter else { return "skipped: the keyboard has no adapter" }
                if let other = snapshot.devices.values.first(where: {
                    $0.adapter == adapter && $0.connected && $0.path != device.path
                }) {
                    return "skipped: \(other.alias) is connected on the same adapter"
                }
                let adapterProxy = DBusProxy(
                    connection: connection, destination: BlueZ.service, path: adapter,
                    interface: BlueZ.adapterInterface)
                try await adapterProxy.setProperty(BlueZ.Property.powered, to: .boolean(false))
                try await adapterProxy.setProperty(BlueZ.Property.powered, to: .boolean(true))
                try await connectAgain(proxy)
            }
        } catch let error as DBusError {
            return "\(error.name.rawValue): \(error.message)"
        } catch {
            return "\(error)"
        }
        return nil
    }

    private func connectAgain(_ proxy: DBusProxy) async throws {
        do {
            try await proxy.call(BlueZ.Method.connect, timeout: .seconds(30))
        } catch let error as DBusError where error.name == BlueZ.Error.alreadyConnected {
        }
    }
}
