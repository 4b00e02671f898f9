/// The daemon's `org.kblink1` objects: the Manager at `/org/kblink1` and one Keyboard object per Bluetooth
/// keyboard BlueZ knows, kept in step with the live BlueZ model.
public actor KeyboardLinkService {
    /// How the service is set up.
    public struct Options: Sendable {
        /// Where profiles, drafts and the firmware cache live.
        public var stateDirectory: String
        /// Which keyboards count as "a hardware keyboard is in use".
        public var presencePolicy: PresencePolicy = .external
        /// How long `StartDiscovery` keeps looking when nobody stops it.
        public var discoveryTimeout: Duration = .seconds(20)
        /// How keyboards are paired (`[Pairing] DefaultAgent` sets `pairing.requestDefaultAgent`).
        public var pairing = PairingOptions()
        /// How long a re-apply on connect waits for a locked ZMK keyboard to be unlocked.
        public var reapplyUnlockTimeout: Duration = .seconds(60)
        /// How long a re-apply on connect waits for the keyboard's driver (a VIA hidraw node appears a moment
        /// after the Bluetooth connection).
        public var reapplyDriverTimeout: Duration = .seconds(5)
        /// How long a ZMK Studio request may go unanswered before the keyboard counts as asleep.
        public var studioRequestTimeout: Duration = .seconds(10)

        public init(stateDirectory: String) {
            self.stateDirectory = stateDirectory
        }
    }

    public let connection: BusConnection
    public let bluez: BlueZModel
    /// Our BlueZ agent and the pairing flows (KeyboardLinkService+Pairing.swift).
    public let pairing: PairingCoordinator
    public private(set) var options: Options
    let log: @Sendable (LogLevel, String) -> Void
    var keyboards: [BluetoothAddress: KeyboardState] = [:]
    var snapshot = BlueZModel.Snapshot()
    private var evdevDevices: [InputDevice] = []
    private var modelTask: Task<Void, Never>?
    private var discoveryStopper: Task<Void, Never>?
    /// The adapters on which kblinkd has a discovery session of its own. BlueZ answers StartDiscovery before its
    /// `Discovering` property changes, so the model's snapshot cannot say which sessions are ours.
    private var discoverySessions: Set<ObjectPath> = []
    /// The keymap edit sessions and their profiles (`KeyboardLinkService+Keymap.swift`).
    public let keymaps: KeymapSessions
    /// Firmware information, its cache and the refreshes in flight (KeyboardLinkService+Firmware.swift).
    var firmwareState: FirmwareState
    /// The keymap pushes running (KeyboardLinkService+Push.swift).
    public let pushes = KeyboardPushes()
    /// Per keyboard, how many times a push or re-apply connected to its driver: a detection that started before
    /// the latest connection does not overwrite what that connection found (KeyboardLinkService+Push.swift).
    var driverConnections: [BluetoothAddress: Int] = [:]
    /// `Firmware` keys a driver read from the keyboard (VIA's protocol and firmware versions), kept beside what
    /// the GATT firmware refresh reads.
    var driverFirmware: [BluetoothAddress: [String: String]] = [:]
    /// The members of `org.kblink1.Keyboard` and `org.kblink1.Keymap` that every keyboard's object shares, built on
    /// first use (KeyboardLinkService+Interfaces.swift): one copy for all keyboards instead of one each.
    var sharedMembers: SharedKeyboardMembers?

    /// - Parameter log: where the service reports what it does.
    public init(connection: BusConnection, options: Options, log: @escaping @Sendable (LogLevel, String) -> Void) {
        self.connection = connection
        let model = BlueZModel(connection: connection)
        self.bluez = model
        self.pairing = PairingCoordinator(connection: connection, model: model, options: options.pairing, log: log)
        self.options = options
        self.log = log
        self.keymaps = KeymapSessions(
            connection: connection, profilesDirectory: options.stateDirectory + "/profiles", log: log)
        self.firmwareState = FirmwareState(stateDirectory: options.stateDirectory)
    }

    /// Exports the Manager, loads BlueZ's state, exports the keyboards and then takes `org.kblink1`.
    /// Returns when the daemon is ready to answer.
    /// - Throws: ``DBusError`` when the name cannot be owned (another kblinkd, or the bus policy).
    public func start() async throws {
        loadFirmwareCache()
        await connection.addObjectManager(at: KBlink.managerPath)
        try await connection.export(managerInterface(), at: KBlink.managerPath)
        await startKeymaps()
        try await bluez.start()
        try await pairing.start()
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
        let reply = try await connection.requestName(KBlink.service)
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            throw DBusError.failed("org.kblink1 is already owned: is another kblinkd running?")
        }
        log(
            .info,
            "serving org.kblink1 with \(keyboards.count) keyboard(s); BlueZ \(snapshot.isBlueZRunning ? "running" : "not running")"
        )
    }

    /// Releases the name and stops following BlueZ.
    public func stop() async {
        await pairing.stop()
        modelTask?.cancel()
        discoveryStopper?.cancel()
        stopFirmwareTasks()
        await bluez.stop()
        try? await connection.releaseName(KBlink.service)
    }

    /// Applies a new configuration (SIGHUP).
    public func reconfigure(_ options: Options) async {
        self.options = options
        await publishPresence()
    }

    /// Feeds the input devices the evdev monitor found.
    public func updateEvdevDevices(_ devices: [InputDevice]) async {
        evdevDevices = devices
        await publishPresence()
    }

    /// The number of exported keyboards.
    public var keyboardCount: Int { keyboards.count }

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
        for device in Self.oneDevicePerAddress(snapshot.devices.values) where Self.isKeyboard(device) {
            guard var state = KeyboardState(device: device) else { continue }
            // Keep what other domains filled in (driver); firmware and batteries come from the firmware cache.
            if let known = keyboards[state.address] {
                state.driver = known.driver
            }
            applyFirmware(to: &state, device: device)
            wanted[state.address] = state
        }
        var keymapChanges: (removed: [BluetoothAddress], added: [KeyboardState]) = ([], [])
        for (address, _) in keyboards where wanted[address] == nil {
            keyboards[address] = nil
            await connection.unexport(at: KBlink.keyboardPath(address))
            keymapChanges.removed.append(address)
        }
        for (address, state) in wanted.sorted(by: { $0.key < $1.key }) {
            if let known = keyboards[address] {
                guard known != state else { continue }
                keyboards[address] = state
                await updateProperties(of: state)
            } else {
                keyboards[address] = state
                do {
                    try await connection.export(keyboardInterface(state), at: KBlink.keyboardPath(address))
                    keymapChanges.added.append(state)
                } catch {
                    log(.error, "cannot export keyboard \(address): \(error)")
                }
            }
        }
        await setManagerProperties([
            ("BluetoothAvailable", .boolean(snapshot.isBluetoothAvailable)),
            ("BlueZRunning", .boolean(snapshot.isBlueZRunning)), ("Discovering", .boolean(snapshot.isDiscovering)),
        ])
        await publishPresence()
        await updateKeymaps(removed: keymapChanges.removed, added: keymapChanges.added)
        followConnectionsForFirmware()
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

    static func isKeyboard(_ device: BlueZDevice) -> Bool {
        KeyboardClassifier.classify(
            DeviceTraits(
                classOfDevice: device.classOfDevice, appearance: device.appearance, icon: device.icon,
                uuidStrings: device.uuids)
        ).isKeyboard
    }

    func updateProperties(of state: KeyboardState) async {
        // The state as it is now (another update, such as a firmware refresh, may have changed it), all at once.
        let current = keyboards[state.address] ?? state
        try? await connection.setProperties(
            current.propertyValues.map { (MemberName(trusted: $0.0), $0.1) }, of: KBlink.keyboardInterface,
            at: KBlink.keyboardPath(state.address))
    }

    /// Sets Manager properties together: readers see them change at once, in one `PropertiesChanged`.
    private func setManagerProperties(_ values: [(String, DBusValue)]) async {
        try? await connection.setProperties(
            values.map { (MemberName(trusted: $0.0), $0.1) }, of: KBlink.managerInterface, at: KBlink.managerPath)
    }

    /// The hardware keyboards that count under the policy, and whether any does.
    public func presence() -> (attached: Bool, keyboards: [HardwareKeyboard]) {
        let bluetooth = keyboards.values.filter(\.connected).map {
            ConnectedBluetoothKeyboard(address: $0.address, name: $0.alias)
        }
        // BlueZ 5.77 and later can keep an LE keyboard's uhid input device across disconnections: its node follows BlueZ.
        let disconnected = Set(
            Self.oneDevicePerAddress(snapshot.devices.values).filter { !$0.connected }.compactMap {
                BluetoothAddress(validating: $0.address)
            })
        let result = PresenceEvaluator(policy: options.presencePolicy).evaluate(
            evdevDevices: evdevDevices, bluetoothKeyboards: bluetooth, disconnectedBluetoothAddresses: disconnected)
        return (result.hardwareKeyboardAttached, result.keyboards)
    }

    private func publishPresence() async {
        let (attached, list) = presence()
        // Both at once, so that no reader sees the flag and the list disagree.
        await setManagerProperties([
            ("HardwareKeyboardAttached", .boolean(attached)), ("HardwareKeyboards", Self.hardwareKeyboardsValue(list)),
        ])
    }

    static func hardwareKeyboardsValue(_ list: [HardwareKeyboard]) -> DBusValue {
        list.dbusValue
    }

    // MARK: Methods

    /// Finds a keyboard by address or unique name prefix (case-insensitive).
    func keyboard(matching text: String) throws -> KeyboardState {
        if let address = BluetoothAddress(validating: text) {
            guard let state = keyboards[address] else {
                throw KBlinkError.notFound("no keyboard \(address) is known; scan for it with 'kblink scan'")
            }
            return state
        }
        let needle = text.lowercased()
        guard !needle.isEmpty else { throw KBlinkError.invalidArgs("give a keyboard address or name") }
        let matches = keyboards.values.filter {
            $0.alias.lowercased().hasPrefix(needle) || $0.name.lowercased().hasPrefix(needle)
        }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw KBlinkError.notFound("no keyboard is called \"\(text)\"; see 'kblink list'") }
        let names = matches.map { "\($0.alias) (\($0.address))" }.sorted().joined(separator: ", ")
        throw KBlinkError.invalidArgs("\"\(text)\" matches several keyboards: \(names); give the address")
    }

    func requireBlueZ(_ action: String) throws {
        guard snapshot.isBlueZRunning else {
            throw KBlinkError.failed(
                "cannot \(action): BlueZ is not running; start it with 'systemctl start bluetooth'")
        }
    }

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
                // Keyboards only: HID (classic) and HOGP (LE).
                try await proxy.call(
                    MemberName(trusted: "SetDiscoveryFilter"),
                    [
                        .dictionary(
                            key: .string, value: .variant,
                            [
                                DBusDictionaryEntry(
                                    key: .string("UUIDs"),
                                    value: .variant(
                                        .array(
                                            .string,
                                            [
                                                .string("00001124-0000-1000-8000-00805f9b34fb"),
                                                .string("00001812-0000-1000-8000-00805f9b34fb"),
                                            ]))),
                                DBusDictionaryEntry(key: .string("Transport"), value: .variant(.string("auto"))),
                            ])
                    ])
                try await proxy.call(MemberName(trusted: "StartDiscovery"))
                discoverySessions.insert(adapter.path)
                log(.debug, "discovering on \(adapter.path.lastElement)")
            } catch let error as DBusError where error.name == BlueZ.Error.inProgress {
                // Our session there is still running (BlueZ allows one per client): it goes on.
                discoverySessions.insert(adapter.path)
            } catch {
                throw KBlinkError.fromBlueZ(error, while: "start discovery on \(adapter.path.lastElement)")
            }
        }
        let timeout = options.discoveryTimeout
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

    func stopDiscovery() async throws {
        try requireBlueZ("stop discovery")
        discoveryStopper?.cancel()
        discoveryStopper = nil
        let sessions = discoverySessions.sorted { $0 < $1 }
        discoverySessions.removeAll()
        log(.debug, "stopping discovery on \(sessions.map(\.lastElement).joined(separator: ", "))")
        for path in sessions {
            let proxy = DBusProxy(
                connection: connection, destination: BlueZ.service, path: path, interface: BlueZ.adapterInterface)
            do {
                try await proxy.call(MemberName(trusted: "StopDiscovery"))
            } catch let error as DBusError
                where [BlueZ.Error.failed, BlueZ.Error.notReady, ErrorName.unknownObject].contains(error.name)
            {
                // It ended already (adapter powered off or gone): nothing left to stop.
            } catch {
                log(.warning, "cannot stop discovery on \(path.lastElement): \(error)")
                throw KBlinkError.fromBlueZ(error, while: "stop discovery")
            }
        }
    }

    /// Discovery sessions end with their adapter (removed or powered off), and all of them with BlueZ.
    private func forgetEndedDiscoverySessions() {
        guard !discoverySessions.isEmpty else { return }
        guard snapshot.isBlueZRunning else {
            discoverySessions.removeAll()
            return
        }
        discoverySessions = discoverySessions.filter { snapshot.adapters[$0]?.powered == true }
    }

    func deviceProxy(_ state: KeyboardState) -> DBusProxy {
        DBusProxy(
            connection: connection, destination: BlueZ.service, path: state.devicePath, interface: BlueZ.deviceInterface
        )
    }

    func connect(_ address: BluetoothAddress) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ("connect")
        guard !state.connected else { return }
        do {
            try await deviceProxy(state).call(MemberName(trusted: "Connect"), timeout: .seconds(30))
        } catch {
            throw KBlinkError.fromBlueZ(error, while: "connect to \(state.alias)")
        }
    }

    /// Disconnects a keyboard so that it stays away until `Connect`. BlueZ stops reconnecting an LE keyboard on its
    /// own after `Device1.Disconnect` only when the keyboard is not trusted at that moment (src/device.c,
    /// `dev_disconnect`); a trusted one that keeps advertising is connected again within seconds. So a trusted
    /// keyboard is untrusted for the call and trusted again right after: BlueZ has then turned its
    /// auto-connection off until the next `Device1.Connect` (or until bluetoothd restarts).
    func disconnect(_ address: BluetoothAddress) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ("disconnect")
        guard state.connected else { return }
        let proxy = deviceProxy(state)
        let wasTrusted = snapshot.devices[state.devicePath]?.trusted ?? state.trusted
        if wasTrusted {
            do {
                try await proxy.setProperty(MemberName(trusted: "Trusted"), to: .boolean(false))
            } catch {
                throw KBlinkError.fromBlueZ(error, while: "disconnect \(state.alias)")
            }
        }
        var failure: (any Error)?
        do {
            try await proxy.call(MemberName(trusted: "Disconnect"))
        } catch {
            failure = error
        }
        if wasTrusted {
            do {
                try await proxy.setProperty(MemberName(trusted: "Trusted"), to: .boolean(true))
            } catch {
                log(
                    .error,
                    "\(state.alias) was left untrusted after disconnecting: \(error); 'kblink trust' restores it")
                if failure == nil { throw KBlinkError.fromBlueZ(error, while: "trust \(state.alias) again") }
            }
        }
        if let failure { throw KBlinkError.fromBlueZ(failure, while: "disconnect \(state.alias)") }
    }

    func setTrusted(_ address: BluetoothAddress, _ trusted: Bool) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ(trusted ? "trust" : "untrust")
        do {
            try await deviceProxy(state).setProperty(MemberName(trusted: "Trusted"), to: .boolean(trusted))
        } catch {
            throw KBlinkError.fromBlueZ(error, while: "\(trusted ? "trust" : "untrust") \(state.alias)")
        }
    }

    func forget(_ address: BluetoothAddress) async throws {
        let state = try keyboard(matching: address.description)
        try requireBlueZ("forget")
        guard let adapter = snapshot.devices[state.devicePath]?.adapter else {
            throw KBlinkError.notFound("BlueZ no longer knows \(state.alias)")
        }
        let proxy = DBusProxy(
            connection: connection, destination: BlueZ.service, path: adapter, interface: BlueZ.adapterInterface)
        do {
            try await proxy.call(MemberName(trusted: "RemoveDevice"), [.objectPath(state.devicePath)])
        } catch {
            throw KBlinkError.fromBlueZ(error, while: "forget \(state.alias)")
        }
    }

    func refreshInfo(_ address: BluetoothAddress) async throws {
        try await refreshFirmware(address)
    }
}
