import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkFirmware

/// Firmware and battery information: loaded from the cache at start, refreshed over GATT on each (re)connect and
/// by `RefreshInfo()`, served as the `Firmware` and `Battery` properties of each keyboard, and kept current from
/// Battery Level notifications while the keyboard is connected.
extension KeyboardLinkService {
    /// What the service keeps about keyboards' firmware.
    struct FirmwareState {
        /// The per-keyboard files in the state directory.
        var cache: FirmwareCache
        /// Vendor names for the `VendorName` key.
        var vendorNames = VendorNames()
        /// The latest information of each keyboard (from the cache, then from refreshes).
        var infos: [BluetoothAddress: FirmwareInfo] = [:]
        /// Refreshes in flight: a second request joins the running one.
        var refreshes: [BluetoothAddress: Task<FirmwareInfo, any Error>] = [:]
        /// Keyboards last seen connected with their services resolved.
        var ready: Set<BluetoothAddress> = []
        /// Battery Level notifications followed per keyboard.
        var batteryWatchers: [BluetoothAddress: Task<Void, Never>] = [:]
        /// How long a refresh waits for BlueZ to resolve services.
        var servicesTimeout: Duration = .seconds(10)

        init(stateDirectory: String) {
            cache = FirmwareCache(stateDirectory: stateDirectory)
        }
    }

    /// The firmware information the service holds for a keyboard (for tests and other domains).
    public func firmwareInfo(for address: BluetoothAddress) -> FirmwareInfo? {
        firmwareState.infos[address]
    }

    /// Whether a refresh of the keyboard's information is in flight.
    public func isRefreshingFirmware(_ address: BluetoothAddress) -> Bool {
        firmwareState.refreshes[address] != nil
    }

    /// Loads every cached keyboard, so that `Firmware` and `Battery` are filled as soon as the keyboards are
    /// exported, even while they sleep. Unreadable files are moved aside and logged.
    func loadFirmwareCache() {
        firmwareState.infos = firmwareState.cache.loadAll { [log] problem in
            log(.warning, "firmware cache: \(problem)")
        }
        if !firmwareState.infos.isEmpty {
            log(.info, "loaded cached firmware information of \(firmwareState.infos.count) keyboard(s)")
        }
    }

    /// Fills a keyboard's `Firmware` and `Battery` from its information.
    ///
    /// The batteries are the Battery Level characteristics' parts as last read (and notified). BlueZ's
    /// `Battery1` is live and reports the first Battery Service: it gives the `main` level of a keyboard that has
    /// one battery (or whose battery was only known through `Battery1`), and is left aside for split keyboards,
    /// whose parts it cannot tell apart.
    func applyFirmware(to state: inout KeyboardState, device: BlueZDevice) {
        let driverKeys = driverFirmware[state.address] ?? [:]
        guard let info = firmwareState.infos[state.address] else {
            state.firmware.merge(driverKeys) { _, read in read }
            return
        }
        state.firmware = info.exportedProperty.merging(driverKeys) { _, read in read }
        var parts = info.batteries.map { (part: $0.part, level: $0.level.percentage) }
        if let live = device.batteryPercentage, live <= 100, parts.count <= 1, (parts.first?.part ?? "main") == "main" {
            parts = [(part: "main", level: live)]
        }
        state.battery = parts
    }

    /// Starts a refresh for each keyboard that became connected with its services resolved, and stops following
    /// the batteries of keyboards that are no longer.
    func followConnectionsForFirmware() {
        var readyNow = Set<BluetoothAddress>()
        for (address, state) in keyboards {
            guard let device = snapshot.devices[state.devicePath], device.connected, device.servicesResolved
            else { continue }
            readyNow.insert(address)
        }
        for address in firmwareState.ready.subtracting(readyNow) {
            firmwareState.batteryWatchers.removeValue(forKey: address)?.cancel()
        }
        let fresh = readyNow.subtracting(firmwareState.ready)
        firmwareState.ready = readyNow
        // Each refresh logs its own failure; nobody waits for these.
        for address in fresh.sorted() {
            _ = startFirmwareRefresh(address)
            Task { await self.keyboardBecameReady(address) }
        }
    }

    /// Cancels the refreshes and battery watchers (the service stops).
    func stopFirmwareTasks() {
        for task in firmwareState.refreshes.values { task.cancel() }
        for task in firmwareState.batteryWatchers.values { task.cancel() }
        firmwareState.batteryWatchers.removeAll()
    }

    /// `RefreshInfo()`: reads the keyboard's information again and waits for the result.
    /// - Throws: `org.kblink1.Error.NotConnected` when the keyboard sleeps or disconnects during the reads (the
    ///   information read before stays), `NotFound` for an unknown keyboard.
    func refreshFirmware(_ address: BluetoothAddress) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ("refresh")
        guard snapshot.devices[state.devicePath]?.connected == true else {
            throw KBlinkError.notConnected(
                "\(state.alias) is not connected (asleep or out of range): \(cachedText(state.address)); wake it by pressing a key, then refresh again"
            )
        }
        _ = try await startFirmwareRefresh(state.address).value
    }

    /// The refresh of a keyboard in flight, or a new one.
    func startFirmwareRefresh(_ address: BluetoothAddress) -> Task<FirmwareInfo, any Error> {
        if let running = firmwareState.refreshes[address] { return running }
        let task = Task { try await self.performFirmwareRefresh(address) }
        firmwareState.refreshes[address] = task
        return task
    }

    /// Reads, decodes, stores and publishes one keyboard's information. Nothing is written when the reads fail.
    private func performFirmwareRefresh(_ address: BluetoothAddress) async throws -> FirmwareInfo {
        defer { firmwareState.refreshes[address] = nil }
        guard let state = keyboards[address], let device = snapshot.devices[state.devicePath] else {
            throw KBlinkError.notFound("BlueZ no longer knows \(address)")
        }
        let name = "\(state.alias) (\(address))"
        let client = GATTClient(connection: connection, model: bluez, device: state.devicePath)
        let reader = FirmwareReader(client: client, servicesTimeout: firmwareState.servicesTimeout)
        let outcome: FirmwareReadOutcome
        do {
            outcome = try await reader.read(modalias: device.modalias, battery1Percentage: device.batteryPercentage)
        } catch {
            log(.notice, "\(name): firmware refresh failed: \(error); \(cachedText(address))")
            switch error.kind {
            case .notConnected:
                throw KBlinkError.notConnected(
                    "\(state.alias) is not connected (\(error.cause.advice)): \(cachedText(address))")
            case .disconnectedDuringRead:
                await waitUntilSeenDisconnected(state.devicePath)
                throw KBlinkError.notConnected(
                    "\(state.alias) disconnected while its information was being read: \(cachedText(address)); wake it by pressing a key, then refresh again"
                )
            }
        }
        let info = outcome.info(vendorNames: firmwareState.vendorNames)
        for note in info.notes {
            log(.warning, "\(name): \(note)")
        }
        let cache = firmwareState.cache
        do {
            // fsync may take a while: not on the service's executor.
            try await Task.detached { try cache.store(info, for: address) }.value
        } catch {
            log(.error, "\(name): \(error)")
        }
        firmwareState.infos[address] = info
        await publishFirmware(address)
        log(
            .info,
            "\(name): read firmware \(info.firmwareRevision ?? "unknown"), \(info.batteries.map(\.description).joined(separator: ", "))"
        )
        if firmwareState.ready.contains(address) {
            watchBatteries(address, devicePath: state.devicePath, outcome.batteryCharacteristics)
        }
        return info
    }

    /// Gives the model a moment (at most two seconds) to deliver the disconnection BlueZ already reported, so
    /// that `Connected` is false by the time the failed refresh answers.
    private func waitUntilSeenDisconnected(_ devicePath: ObjectPath) async {
        for _ in 0..<200 where snapshot.devices[devicePath]?.connected == true {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// What is shown instead of fresh information.
    private func cachedText(_ address: BluetoothAddress) -> String {
        guard let info = firmwareState.infos[address] else { return "no information was read yet" }
        return "kept the information read \(FirmwareAge.text(readAt: info.readAt, now: .now()))"
    }

    /// Recomputes a keyboard's `Firmware` and `Battery` and emits `PropertiesChanged` for what changed.
    private func publishFirmware(_ address: BluetoothAddress) async {
        guard var state = keyboards[address], let device = snapshot.devices[state.devicePath] else { return }
        applyFirmware(to: &state, device: device)
        guard state != keyboards[address] else { return }
        keyboards[address] = state
        await updateProperties(of: state)
    }

    /// Follows the notifications of a keyboard's Battery Level characteristics until it disconnects.
    private func watchBatteries(
        _ address: BluetoothAddress, devicePath: ObjectPath,
        _ batteries: [FirmwareReadOutcome.BatteryCharacteristic]
    ) {
        let previous = firmwareState.batteryWatchers.removeValue(forKey: address)
        previous?.cancel()
        let notifying = batteries.filter { $0.characteristic.flags.canNotify }
        guard !notifying.isEmpty else { return }
        let client = GATTClient(connection: connection, model: bluez, device: devicePath)
        firmwareState.batteryWatchers[address] = Task { [weak self] in
            // bluetoothd keeps one notification session per characteristic and client: the previous watcher's
            // StopNotify must be answered before this one's StartNotify, or it would end the new session.
            await previous?.value
            await withTaskGroup(of: Void.self) { group in
                for battery in notifying {
                    group.addTask {
                        guard let values = try? await client.notifications(from: battery.characteristic) else { return }
                        for await value in values {
                            guard let level = try? BatteryLevel(characteristicValue: value) else { continue }
                            await self?.batteryNotified(address, part: battery.part, level: level)
                        }
                        await values.stop()
                    }
                }
            }
        }
    }

    /// A Battery Level notification: updates the part's level (in memory: the cache keeps what refreshes read).
    private func batteryNotified(_ address: BluetoothAddress, part: String, level: BatteryLevel) async {
        guard var info = firmwareState.infos[address],
            let index = info.batteries.firstIndex(where: { $0.part == part }), info.batteries[index].level != level
        else { return }
        info.batteries[index].level = level
        firmwareState.infos[address] = info
        await publishFirmware(address)
    }
}
