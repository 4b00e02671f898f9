import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkFirmware
import KeyboardLinkKeymap
import KeyboardLinkPresence
import KeyboardLinkSupport

/// The keyboards kblinkd exports, kept in step with the live BlueZ model: one `org.kblink1.Keyboard` object (and,
/// for a paired keyboard, `org.kblink1.Keymap` on it) per Bluetooth keyboard BlueZ knows (of the unpaired ones not
/// connected, only the ``unpairedLimit`` seen last: anyone in radio range can claim to be a keyboard, under as many
/// addresses as they like), the Manager's
/// Bluetooth and presence properties (presence as its ``PresenceTracker`` answers, fed from here), and what other
/// jobs learn about each keyboard (firmware information, the driver) merged into its exported state.
///
/// Discovery (`KeyboardRegistry+Discovery.swift`) and the calls that act on a keyboard through BlueZ
/// (`KeyboardRegistry+Devices.swift`) live here too: both follow the BlueZ snapshot this registry holds.
actor KeyboardRegistry {
    let connection: BusConnection
    let bluez: BlueZModel
    let keymaps: KeymapSessions
    /// Who holds each keyboard's firmware: a healing step that disconnects a keyboard waits for its session.
    let pushes: KeyboardPushes
    let log: @Sendable (LogLevel, String) -> Void
    /// Presence: its inputs (the evdev keyboards among them), policy, grace period and what the Manager's
    /// properties show (`KeyboardRegistry+Presence.swift` feeds it and publishes its answers).
    var presenceTracker: PresenceTracker
    /// Publishes again when the grace period ends.
    var graceTimer: Task<Void, Never>?
    /// Supplies BlueZ the batteries it does not report itself.
    var batteryProvider: BatteryProviderPublisher?
    /// How long `StartDiscovery` keeps looking when nobody stops it.
    var discoveryTimeout: Duration
    /// How many unpaired, unconnected keyboards are exported at most; past it, the ones first seen earliest are
    /// left out (they stay in BlueZ, and `Pair` by address still finds them).
    let unpairedLimit: Int
    /// When each unpaired, unconnected keyboard BlueZ lists now was first seen (an increasing serial).
    private var unpairedFirstSeen: [BluetoothAddress: UInt64] = [:]
    private var unpairedSerial: UInt64 = 0
    /// Whether unpaired keyboards are being left out now (logged when that starts and ends, not per update).
    private var isCappingUnpaired = false
    var keyboards: [BluetoothAddress: KeyboardState] = [:]
    var snapshot = BlueZModel.Snapshot()
    /// How keyboards connected without an input device are healed (`[Health]`).
    var healthSettings: HealthSettings
    /// Each keyboard's healing ladder, its timer and what it recorded (`KeyboardRegistry+Health.swift`).
    var healthRecords: [BluetoothAddress: KeyboardHealthRecord] = [:]
    /// Between logind's `PrepareForSleep(true)` and `PrepareForSleep(false)`: nothing is healed.
    var systemSleeping = false
    private var modelTask: Task<Void, Never>?
    var discoveryStopper: Task<Void, Never>?
    /// The adapters on which kblinkd has a discovery session of its own. BlueZ answers StartDiscovery before its
    /// `Discovering` property changes, so the model's snapshot cannot say which sessions are ours.
    var discoverySessions: Set<ObjectPath> = []
    /// The latest firmware information of each keyboard (from the cache, then from refreshes and notifications).
    var firmwareInfos: [BluetoothAddress: FirmwareInfo] = [:]
    /// `Firmware` keys a driver read from the keyboard (VIA's protocol and firmware versions), kept beside what
    /// the GATT firmware refresh reads.
    var driverFirmware: [BluetoothAddress: [String: String]] = [:]
    /// The D-Bus objects of a keyboard (its shared member declarations); set before the registry starts.
    private var objects: KeyboardObjects?
    /// Told, after each reconciliation, which keyboards are connected with their services resolved.
    private var readinessObserver: (@Sendable (Set<BluetoothAddress>) async -> Void)?

    init(
        connection: BusConnection, bluez: BlueZModel, keymaps: KeymapSessions, pushes: KeyboardPushes,
        presencePolicy: PresencePolicy,
        presence: PresenceSettings = PresenceSettings(), health: HealthSettings = HealthSettings(),
        discoveryTimeout: Duration, unpairedLimit: Int = 32, log: @escaping @Sendable (LogLevel, String) -> Void
    ) {
        healthSettings = health
        self.unpairedLimit = max(0, unpairedLimit)
        presenceTracker = PresenceTracker(policy: presencePolicy, settings: presence)
        self.connection = connection
        self.bluez = bluez
        self.keymaps = keymaps
        self.pushes = pushes
        self.discoveryTimeout = discoveryTimeout
        self.log = log
    }

    /// Sets the keyboards' object declarations, the firmware information read before (the cache) and who hears
    /// about keyboards becoming ready.
    func prepare(
        objects: KeyboardObjects, firmware: [BluetoothAddress: FirmwareInfo],
        readinessObserver: @escaping @Sendable (Set<BluetoothAddress>) async -> Void
    ) {
        self.objects = objects
        firmwareInfos = firmware
        self.readinessObserver = readinessObserver
    }

    /// Starts following BlueZ; returns after the first snapshot is applied.
    func start() async throws {
        try await bluez.start()
    }

    /// Applies the model's first snapshot, then follows its updates in a task of its own.
    func follow() async {
        let updates = await bluez.updates()
        var iterator = updates.makeAsyncIterator()
        if let first = await iterator.next() {
            await apply(first)
        }
        modelTask = Task { [weak self] in
            while let update = await iterator.next() {
                await self?.apply(update)
            }
        }
    }

    /// Stops following BlueZ and the discovery timer.
    func stop() {
        modelTask?.cancel()
        discoveryStopper?.cancel()
        graceTimer?.cancel()
        stopHealing()
    }

    /// The number of exported keyboards.
    var count: Int { keyboards.count }

    /// Whether BlueZ is on the bus.
    var isBlueZRunning: Bool { snapshot.isBlueZRunning }

    /// A keyboard's exported state.
    func keyboard(_ address: BluetoothAddress) -> KeyboardState? {
        keyboards[address]
    }

    /// BlueZ's device at a path, as the latest snapshot has it.
    func device(at path: ObjectPath) -> BlueZDevice? {
        snapshot.devices[path]
    }

    /// Whether BlueZ reports the keyboard connected.
    func isConnected(_ state: KeyboardState) -> Bool {
        snapshot.devices[state.devicePath]?.connected == true
    }

    // MARK: Following BlueZ

    private func apply(_ update: BlueZModel.Update) async {
        let wasRunning = snapshot.isBlueZRunning
        // GATT objects come and go by the dozen around each connection; when an update touches no adapter and
        // no device, nothing exported changes: skip the reconciliation so presence is never queued behind them.
        if let changed = update.changedPaths,
            !changed.contains(where: {
                update.snapshot.adapters[$0] != nil || update.snapshot.devices[$0] != nil
                    || snapshot.adapters[$0] != nil || snapshot.devices[$0] != nil
            })
        {
            snapshot = update.snapshot
            forgetEndedDiscoverySessions()
            return
        }
        snapshot = update.snapshot
        forgetEndedDiscoverySessions()
        if wasRunning != snapshot.isBlueZRunning {
            log(
                snapshot.isBlueZRunning ? .notice : .warning,
                snapshot.isBlueZRunning ? "BlueZ is on the bus" : "BlueZ left the bus")
        }
        var wanted: [BluetoothAddress: KeyboardState] = [:]
        for device in Self.oneDevicePerAddress(snapshot.devices.values) where device.isKeyboard {
            guard var state = KeyboardState(device: device) else { continue }
            // Keep what other jobs filled in (driver); firmware and batteries come from the firmware information.
            if let known = keyboards[state.address] {
                state.driver = known.driver
                // A Studio keyboard's lock is known only while its link is up (ZMK locks when it disconnects).
                state.studioLock = state.connected || known.studioLock == .notStudio ? known.studioLock : .unknown
            }
            applyFirmware(to: &state, device: device)
            applyHealth(to: &state, device: device)
            wanted[state.address] = state
        }
        capUnpaired(&wanted)
        var keymapChanges: (removed: [BluetoothAddress], added: [KeyboardState], detached: [BluetoothAddress]) = (
            [], [], []
        )
        for (address, _) in keyboards where wanted[address] == nil {
            keyboards[address] = nil
            forgetHealth(address)
            await connection.unexport(at: KBlink.keyboardPath(address))
            keymapChanges.removed.append(address)
        }
        for (address, state) in wanted.sorted(by: { $0.key < $1.key }) {
            if let known = keyboards[address] {
                guard known != state else { continue }
                keyboards[address] = state
                await updateProperties(of: state)
                // A keymap session is a paired keyboard's: opened when it pairs, closed when it is unpaired.
                if state.paired && !known.paired { keymapChanges.added.append(state) }
                if !state.paired && known.paired { keymapChanges.detached.append(address) }
            } else {
                keyboards[address] = state
                guard let objects else { continue }
                do {
                    try await connection.export(objects.keyboard.interface(state), at: KBlink.keyboardPath(address))
                    if state.paired { keymapChanges.added.append(state) }
                } catch {
                    log(.error, "cannot export keyboard \(address): \(error)")
                }
            }
        }
        await setManagerProperties([
            KBlinkContract.Manager.bluetoothAvailableProperty.assigned(snapshot.isBluetoothAvailable),
            KBlinkContract.Manager.blueZRunningProperty.assigned(snapshot.isBlueZRunning),
            KBlinkContract.Manager.discoveringProperty.assigned(snapshot.isDiscovering),
        ])
        await publishPresence()
        offerBatteries()
        await updateKeymaps(
            removed: keymapChanges.removed, detached: keymapChanges.detached, added: keymapChanges.added)
        await readinessObserver?(readyKeyboards())
    }

    /// The keyboards connected with their services resolved.
    private func readyKeyboards() -> Set<BluetoothAddress> {
        var ready = Set<BluetoothAddress>()
        for (address, state) in keyboards {
            guard let device = snapshot.devices[state.devicePath], device.connected, device.servicesResolved
            else { continue }
            ready.insert(address)
        }
        return ready
    }

    /// Publishes a keyboard's properties as they are now (another update, such as a firmware refresh, may have
    /// changed them), all at once.
    func updateProperties(of state: KeyboardState) async {
        let current = keyboards[state.address] ?? state
        try? await connection.setProperties(
            current.propertyValues, of: KBlink.keyboardInterface, at: KBlink.keyboardPath(state.address))
        offerBatteries()
    }

    /// Hands the battery provider the batteries to supply as things are now.
    func offerBatteries() {
        batteryProvider?.offer(
            ProvidedBattery.wanted(keyboards: keyboards.values, devices: snapshot.devices),
            adapters: snapshot.adapters.keys.sorted(), blueZRunning: snapshot.isBlueZRunning)
    }

    /// Sets the battery provider (before the registry starts).
    func setBatteryProvider(_ provider: BatteryProviderPublisher) {
        batteryProvider = provider
    }

    /// Sets Manager properties together: readers see them change at once, in one `PropertiesChanged`.
    func setManagerProperties(_ values: [KBlinkPropertyAssignment]) async {
        try? await connection.setProperties(values, of: KBlink.managerInterface, at: KBlink.managerPath)
    }

    // MARK: Keymap objects

    /// After keyboard objects were unexported and exported (and the Manager's properties published, so that
    /// opening profiles never delays them): closes and opens the keyboards' keymap sessions. `detached` are
    /// keyboards that stay but are no longer paired: their `Keymap` interface goes, their session closes (the
    /// saved draft stays on disk for when they pair again).
    private func updateKeymaps(removed: [BluetoothAddress], detached: [BluetoothAddress], added: [KeyboardState])
        async
    {
        for address in removed { await keymaps.close(address) }
        for address in detached {
            await connection.unexport(KBlink.keymapInterface, at: KBlink.keyboardPath(address))
            await keymaps.close(address)
        }
        for state in added { await attachKeymap(state) }
    }

    /// Leaves out of `wanted` the unpaired, unconnected keyboards past ``unpairedLimit``, first seen earliest
    /// first. Such keyboards are whatever answers a scan claiming a keyboard's class or appearance; a device can
    /// advertise under a new random address every second, and each would otherwise cost an exported object.
    private func capUnpaired(_ wanted: inout [BluetoothAddress: KeyboardState]) {
        let unpaired = wanted.values.filter { !$0.paired && !$0.connected }.map(\.address).sorted()
        let listed = Set(unpaired)
        unpairedFirstSeen = unpairedFirstSeen.filter { listed.contains($0.key) }
        for address in unpaired where unpairedFirstSeen[address] == nil {
            unpairedSerial += 1
            unpairedFirstSeen[address] = unpairedSerial
        }
        let excess = unpaired.count - unpairedLimit
        if (excess > 0) != isCappingUnpaired {
            isCappingUnpaired = excess > 0
            log(
                .notice,
                isCappingUnpaired
                    ? "\(unpaired.count) unpaired keyboards in range: listing the \(unpairedLimit) seen last"
                    : "unpaired keyboards in range back within \(unpairedLimit): listing all")
        }
        guard excess > 0 else { return }
        let oldest = unpaired.sorted { (unpairedFirstSeen[$0] ?? 0) < (unpairedFirstSeen[$1] ?? 0) }.prefix(excess)
        for address in oldest { wanted[address] = nil }
    }

    /// After a keyboard's object is exported: opens its session (restoring the saved draft) and exports the
    /// `Keymap` interface on the same object. (Unexporting the keyboard's object removes `Keymap` too.)
    private func attachKeymap(_ state: KeyboardState) async {
        guard let objects else { return }
        let path = KBlink.keyboardPath(state.address)
        guard
            let session = await keymaps.open(
                state.address, name: state.name, path: path, productIDs: state.productIDs)
        else { return }
        let settings = await keymaps.settings(for: state.address) ?? ProfileSettings()
        do {
            try await connection.export(objects.keymap.interface(session, settings: settings), at: path)
        } catch {
            log(.error, "cannot export the keymap of \(state.address): \(error)")
            await keymaps.close(state.address)
        }
    }

    // MARK: ListKeyboards

    /// The `ListKeyboards` answer: every exported keyboard, by address; rebuilt only when a keyboard changed.
    func keyboardList(cache: KeyboardListCache) -> DBusValue {
        cache.list(for: keyboards) { keyboards in
            .array(KeyboardSummary.dbusType, keyboards.sorted { $0.key < $1.key }.map(\.value.summary.dbusValue))
        }
    }

    /// `org.kblink1.Manager.HealthSummary`'s answer: the keyboards exported now counted by health, and those
    /// waiting, healing or failed, by address.
    func healthSummary() -> KeyboardHealthSummary {
        var counts: [String: UInt32] = [:]
        var needingAttention: [KeyboardHealthSummary.Entry] = []
        for keyboard in keyboards.values {
            counts[keyboard.health.wireForm, default: 0] += 1
            guard KeyboardHealthSummary.needsAttention(keyboard.health) else { continue }
            needingAttention.append(
                KeyboardHealthSummary.Entry(
                    path: KBlink.keyboardPath(keyboard.address), address: keyboard.address.description,
                    alias: keyboard.alias, health: keyboard.health, healthDetail: keyboard.healthDetail))
        }
        needingAttention.sort { $0.address < $1.address }
        return KeyboardHealthSummary(counts: counts, needingAttention: needingAttention)
    }

    /// One device per address. With several adapters, BlueZ has one device object per adapter that saw the
    /// keyboard (each discovering adapter creates its own); the one kblinkd follows is the paired one, else the
    /// connected one, else the one of the first adapter (the pairing flow picks that one too), so that a stray
    /// copy on another adapter never hides the keyboard's real state.
    static func oneDevicePerAddress(_ devices: some Sequence<BlueZDevice>) -> [BlueZDevice] {
        var chosen: [String: BlueZDevice] = [:]
        for device in devices {
            let key = device.address.uppercased()
            guard let other = chosen[key] else {
                chosen[key] = device
                continue
            }
            let rank = { (candidate: BlueZDevice) in (candidate.paired ? 0 : 1, candidate.connected ? 0 : 1) }
            let (left, right) = (rank(device), rank(other))
            if left < right || (left == right && device.path < other.path) { chosen[key] = device }
        }
        return Array(chosen.values)
    }
}
