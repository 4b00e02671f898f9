import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkFirmware
import KeyboardLinkSupport

/// Firmware and battery information: loaded from the cache at start, refreshed over GATT on each (re)connect and
/// by `RefreshInfo()`, and kept current from Battery Level notifications while the keyboard is connected. What it
/// reads goes to the ``KeyboardRegistry``, which serves it as each keyboard's `Firmware` and `Battery`.
actor FirmwareRefresher {
    let connection: BusConnection
    let bluez: BlueZModel
    let registry: KeyboardRegistry
    let log: @Sendable (LogLevel, String) -> Void
    /// The per-keyboard files in the state directory.
    let cache: FirmwareCache
    /// Vendor names for the `VendorName` key.
    let vendorNames = VendorNames()
    /// Refreshes in flight: a second request joins the running one.
    private var refreshes: [BluetoothAddress: Task<FirmwareInfo, any Error>] = [:]
    /// Keyboards last seen connected with their services resolved.
    private var ready: Set<BluetoothAddress> = []
    /// Battery Level notifications followed per keyboard.
    private var batteryWatchers: [BluetoothAddress: Task<Void, Never>] = [:]
    /// How long a refresh waits for BlueZ to resolve services.
    var servicesTimeout: Duration = .seconds(10)
    /// How long the GATT objects must stay unchanged before a refresh reads, and how long it waits past that for
    /// a listed service BlueZ has not exported yet.
    let settleQuiet: Duration
    let listedServiceWait: Duration
    /// How long after a read `RefreshInfo()` answers from it, on the clock `now` reads.
    let refreshWindow: Duration
    let now: @Sendable () -> ContinuousClock.Instant
    /// When each keyboard's information was last read successfully.
    private var lastRead: [BluetoothAddress: ContinuousClock.Instant] = [:]

    init(
        connection: BusConnection, bluez: BlueZModel, registry: KeyboardRegistry, stateDirectory: String,
        settleQuiet: Duration = .milliseconds(400), listedServiceWait: Duration = .seconds(2),
        refreshWindow: Duration = KeyboardLinkService.Options.defaultFirmwareRefreshWindow,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        log: @escaping @Sendable (LogLevel, String) -> Void
    ) {
        self.settleQuiet = settleQuiet
        self.listedServiceWait = listedServiceWait
        self.refreshWindow = refreshWindow
        self.now = now
        self.connection = connection
        self.bluez = bluez
        self.registry = registry
        self.log = log
        self.cache = FirmwareCache(stateDirectory: stateDirectory)
    }

    /// Loads every cached keyboard, so that `Firmware` and `Battery` are filled as soon as the keyboards are
    /// exported, even while they sleep. Unreadable files are moved aside and logged.
    nonisolated func loadCache() -> [BluetoothAddress: FirmwareInfo] {
        let infos = cache.loadAll { [log] problem in
            log(.warning, "firmware cache: \(problem)")
        }
        if !infos.isEmpty {
            log(.info, "loaded cached firmware information of \(infos.count) keyboard(s)")
        }
        return infos
    }

    /// Whether a refresh of the keyboard's information is in flight.
    func isRefreshing(_ address: BluetoothAddress) -> Bool {
        refreshes[address] != nil
    }

    /// Starts a refresh for each keyboard that became connected with its services resolved (`readyNow` are those
    /// that are), and stops following the batteries of keyboards that are no longer.
    /// - Returns: the keyboards that became ready.
    func follow(readyNow: Set<BluetoothAddress>) -> Set<BluetoothAddress> {
        for address in ready.subtracting(readyNow) {
            batteryWatchers.removeValue(forKey: address)?.cancel()
        }
        let fresh = readyNow.subtracting(ready)
        ready = readyNow
        // Each refresh logs its own failure; nobody waits for these.
        for address in fresh.sorted() {
            _ = startRefresh(address)
        }
        return fresh
    }

    /// Cancels the refreshes and battery watchers (the service stops).
    func stop() {
        for task in refreshes.values { task.cancel() }
        for task in batteryWatchers.values { task.cancel() }
        batteryWatchers.removeAll()
    }

    /// `RefreshInfo()`: reads the keyboard's information again and waits for the result; joins a read in flight,
    /// and answers from the last read when it is younger than `refreshWindow`.
    /// - Throws: `org.kblink1.Error.NotConnected` when the keyboard sleeps or disconnects during the reads (the
    ///   information read before stays), `NotFound` for an unknown keyboard.
    func refresh(_ address: BluetoothAddress) async throws {
        let state = try await registry.keyboard(matching: address.description)
        try await registry.requireBlueZ("refresh")
        guard await registry.isConnected(state) else {
            throw KBlinkError.notConnected(
                "\(state.alias) is not connected (asleep or out of range): \(await cachedText(state.address)); wake it by pressing a key, then refresh again"
            )
        }
        if refreshes[state.address] == nil, let last = lastRead[state.address], now() - last < refreshWindow {
            log(.debug, "\(state.alias) (\(state.address)): information read \(now() - last) ago; not read again")
            return
        }
        _ = try await startRefresh(state.address).value
    }

    /// The refresh of a keyboard in flight, or a new one.
    private func startRefresh(_ address: BluetoothAddress) -> Task<FirmwareInfo, any Error> {
        if let running = refreshes[address] { return running }
        let task = Task { try await self.performRefresh(address) }
        refreshes[address] = task
        return task
    }

    /// Reads, decodes, stores and publishes one keyboard's information. Nothing is written when the reads fail.
    private func performRefresh(_ address: BluetoothAddress) async throws -> FirmwareInfo {
        defer { refreshes[address] = nil }
        guard let state = await registry.keyboard(address), let device = await registry.device(at: state.devicePath)
        else {
            throw KBlinkError.notFound("BlueZ no longer knows \(address)")
        }
        let name = "\(state.alias) (\(address))"
        let client = GATTClient(connection: connection, model: bluez, device: state.devicePath)
        let reader = FirmwareReader(
            client: client, servicesTimeout: servicesTimeout, settleQuiet: settleQuiet,
            listedServiceWait: listedServiceWait)
        let outcome: FirmwareReadOutcome
        do {
            outcome = try await reader.read(modalias: device.modalias, battery1Percentage: device.batteryPercentage)
        } catch {
            lastRead[address] = nil
            let cached = await cachedText(address)
            log(.notice, "\(name): firmware refresh failed: \(error); \(cached)")
            if error.kind == .disconnectedDuringRead {
                await waitUntilSeenDisconnected(state.devicePath)
            }
            throw error.kblinkError(alias: state.alias, cached: cached)
        }
        let info = outcome.info(vendorNames: vendorNames)
        for note in info.notes {
            log(.warning, "\(name): \(note)")
        }
        let cache = self.cache
        do {
            // fsync may take a while: not on the refresher's executor.
            try await Task.detached { try cache.store(info, for: address) }.value
        } catch {
            log(.error, "\(name): \(error)")
        }
        await registry.setFirmwareInfo(info, for: address)
        lastRead[address] = now()
        log(
            .info,
            "\(name): read firmware \(info.firmwareRevision ?? "unknown"), \(info.batteries.map(\.description).joined(separator: ", "))"
        )
        if ready.contains(address) {
            watchBatteries(address, devicePath: state.devicePath, outcome.batteryCharacteristics)
        }
        return info
    }

    /// Gives the model a moment (at most two seconds) to deliver the disconnection BlueZ already reported, so
    /// that `Connected` is false by the time the failed refresh answers.
    private func waitUntilSeenDisconnected(_ devicePath: ObjectPath) async {
        for _ in 0..<200 where await registry.device(at: devicePath)?.connected == true {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// What is shown instead of fresh information.
    private func cachedText(_ address: BluetoothAddress) async -> String {
        guard let info = await registry.firmwareInfo(for: address) else { return "no information was read yet" }
        return "kept the information read \(FirmwareAge.text(readAt: info.readAt, now: .now()))"
    }

    /// Follows the notifications of a keyboard's Battery Level characteristics until it disconnects.
    private func watchBatteries(
        _ address: BluetoothAddress, devicePath: ObjectPath,
        _ batteries: [FirmwareReadOutcome.BatteryCharacteristic]
    ) {
        let previous = batteryWatchers.removeValue(forKey: address)
        previous?.cancel()
        let notifying = batteries.filter { $0.characteristic.flags.canNotify }
        guard !notifying.isEmpty else { return }
        let client = GATTClient(connection: connection, model: bluez, device: devicePath)
        batteryWatchers[address] = Task { [weak registry] in
            // bluetoothd keeps one notification session per characteristic and client: the previous watcher's
            // StopNotify must be answered before this one's StartNotify, or it would end the new session.
            await previous?.value
            await withTaskGroup(of: Void.self) { group in
                for battery in notifying {
                    group.addTask {
                        guard let values = try? await client.notifications(from: battery.characteristic) else { return }
                        for await value in values {
                            guard let level = try? BatteryLevel(characteristicValue: value) else { continue }
                            await registry?.batteryNotified(address, part: battery.part, level: level)
                        }
                        await values.stop()
                    }
                }
            }
        }
    }
}
