import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// A simulated `bluetoothd`: adapters, devices, discovery, connections and batteries served on a real bus
/// with our own object server, under the name `org.bluez`.
///
/// It is the embedded default of `kblinkd --simulate` and the test double of the integration tests, which
/// script it: add and remove devices, connect and disconnect them, kill BlueZ and start it again.
package actor SimulatedBlueZ {
    /// One simulated adapter.
    package struct Adapter: Sendable, Equatable {
        package var path: ObjectPath
        package var address: BluetoothAddress
        package var name: String
        package var powered = true
        package var discovering = false
    }

    struct Entry {
        var device: SimulatedDevice
        var adapter: ObjectPath
        /// BlueZ's `disable_auto_connect`: set by a `Disconnect` of an untrusted LE device, cleared by `Connect`
        /// (SimulatedBlueZ+AutoConnect.swift).
        var autoConnectDisabled = false
        /// Counts the device's connections and disconnections: a `Disconnect` whose link went down another way
        /// meanwhile (an adapter power cycle) does not take the next connection down.
        var linkChanges = 0
    }

    package let bus: BusAddress
    var connection: BusConnection?
    var adapters: [Adapter]
    var entries: [BluetoothAddress: Entry] = [:]
    /// Devices each adapter finds when it discovers.
    var discoverable: [ObjectPath: [SimulatedDevice]] = [:]
    var discoveryTasks: [ObjectPath: Task<Void, Never>] = [:]
    /// StopDiscovery calls to answer `InProgress` first, per adapter: bluetoothd answers so (src/adapter.c,
    /// btd_error_busy) while the client's previous discovery command still waits for the controller, which the
    /// real-stack rig met on a loaded machine right after a StartDiscovery.
    var busyStopDiscoveryAnswers: [ObjectPath: Int] = [:]
    /// Adapters whose controller refuses the next StopDiscovery (``rejectNextStopDiscovery(on:)``).
    var rejectedStopDiscovery: Set<ObjectPath> = []
    /// Adapters that show `Discovering` true after a refused stop although bluetoothd forgot every session there.
    package internal(set) var discoveringWithoutSession: Set<ObjectPath> = []
    /// How long a scan takes to find a device.
    package var discoveryDelay: Duration = .milliseconds(300)
    /// How long after answering StartDiscovery or StopDiscovery the adapter announces its new `Discovering` value.
    /// BlueZ answers first and changes the property when the controller confirms, a few milliseconds later; zero
    /// (the default) announces it before answering.
    package private(set) var discoveringAnnouncementDelay: Duration = .zero
    /// Registered agents by the registering connection.
    var agents: [BusName: (path: ObjectPath, capability: String)] = [:]
    var defaultAgent: BusName?
    /// Pairings in progress, their timings and every agent call made (SimulatedBlueZ+Pairing.swift).
    var pairings: [BluetoothAddress: Pairing] = [:]
    var nextPairingID: UInt64 = 0
    var pairingTimings = PairingTimings()
    var agentLog: [AgentCall] = []
    /// Devices whose connections are made without announcing `Connected` (bluetoothd's race; see
    /// `setConnectsWithoutAnnouncing(_:_:)` in SimulatedBlueZ+AutoConnect.swift).
    var unannouncedConnections: Set<BluetoothAddress> = []
    /// Devices whose disconnections leave `Connected` unannounced (bluetoothd's batched property changes; see
    /// `setDisconnectsWithoutAnnouncing(_:_:)` in SimulatedBlueZ+AutoConnect.swift).
    var unannouncedDisconnections: Set<BluetoothAddress> = []
    /// Whether a connection announces `ServicesResolved` before exporting the GATT objects, as bluetoothd 5.66 does
    /// on the bus (`setAnnouncesServicesResolvedFirst(_:)`).
    var announcesServicesResolvedFirst = false
    /// How long a `Device1.Disconnect` keeps the link up before taking it down (bluetoothd's `DISCONNECT_TIMER`, 2 s,
    /// scaled down; `setDisconnectTimer(_:)` in SimulatedBlueZ+AutoConnect.swift).
    var disconnectTimer: Duration = .milliseconds(200)
    /// The `Device1.Disconnect` calls whose link is still up, by device: a second call waits for the first.
    var pendingDisconnects: [BluetoothAddress: Task<Void, any Error>] = [:]
    /// Devices whose disconnection after their `ServicesResolved` turns false announces `Connected` false only after
    /// this much longer (`setConnectedLingers(_:_:)` in SimulatedBlueZ+AutoConnect.swift).
    var connectedLingers: [BluetoothAddress: Duration] = [:]
    /// Devices whose `Device1.Connect` is answered before the link's signals, which follow this much later
    /// (`setAnnouncesConnectionAfterAnswering(_:_:)` in SimulatedBlueZ+AutoConnect.swift).
    var connectionAnnouncementDelays: [BluetoothAddress: Duration] = [:]
    /// Whether bluetoothd runs with experimental features (`-E`): then adapters have `BatteryProviderManager1` and
    /// `Battery1` shows `Source` (SimulatedBlueZ+BatteryProviders.swift).
    package internal(set) var experimental = false
    /// Registered battery providers and the batteries they supply.
    var batteryProviders: [BatteryProviderKey: BatteryProvider] = [:]
    var providedBatteries: [ObjectPath: ProvidedBattery] = [:]
    /// The GATT objects of connected devices (Device Information, Battery, ...), scripted by tests.
    package nonisolated let gatt = SimulatedGATTServer()
    /// The keyboards' input devices, when the simulator plays the kernel too (``setInputDevices(_:)``).
    var inputDevices: SimulatedInputDevices?
    /// Devices whose next connection follows a `Device1.Disconnect` call.
    var disconnectedByCall: Set<BluetoothAddress> = []
    /// Each device's connections so far: a late input device belongs to the connection it was due on.
    var connectionSerials: [BluetoothAddress: Int] = [:]
    /// The healing calls each device received (tests read them).
    var healingCalls: [BluetoothAddress: HealingCalls] = [:]
    /// The devices each adapter had connected when it was powered off: they come back when it is powered on.
    var connectedBeforePowerOff: [ObjectPath: [BluetoothAddress]] = [:]

    /// A simulated machine with `adapterCount` adapters (`hci0`, ...) holding `devices` on the first adapter.
    package init(bus: BusAddress, adapterCount: Int = 1, devices: [SimulatedDevice]) {
        self.bus = bus
        self.adapters = (0..<max(1, adapterCount)).map { index in
            let address =
                (try? BluetoothAddress(bytes: [0x00, 0x1A, 0x7D, 0xDA, 0x71, UInt8(truncatingIfNeeded: index)]))
            return Adapter(
                path: BlueZ.managerPath.appending(element: "hci\(index)"),
                address: address ?? BluetoothAddress(validating: "00:1A:7D:DA:71:00")!,
                name: "kblink-sim-\(index)")
        }
        let first = adapters[0].path
        for device in devices {
            if device.discoverableOnly {
                discoverable[first, default: []].append(device)
            } else {
                entries[device.address] = Entry(device: device, adapter: first)
            }
        }
    }

    /// The demo machine: an Aula F87 (connected, with the ZMK Studio service; `SimulatedDemoFirmware` answers it),
    /// a VGN 98Pro (asleep), a phone and a mouse, and a Keychron K3 and a headset that a scan finds.
    package static func demo(bus: BusAddress) -> SimulatedBlueZ {
        SimulatedBlueZ(
            bus: bus,
            devices: [SimulatedStudioKeyboard.aulaF87Device, .vgn98Pro, .phone, .mouse, .keychronK3, .headset])
    }

    // MARK: Life cycle

    /// Connects, exports every object and then takes the name `org.bluez` (like bluetoothd, the name appears
    /// only once the objects are there).
    /// - Throws: ``DBusError`` when the bus cannot be reached or the name is taken.
    package func start() async throws {
        guard connection == nil else { return }
        let connection = try await BusConnection.connect(to: bus, label: "kblink.simulated-bluez")
        self.connection = connection
        await connection.addObjectManager(at: .root)
        try await connection.export(agentManagerInterface(), at: BlueZ.managerPath)
        for adapter in adapters {
            try await connection.export(adapterInterface(adapter), at: adapter.path)
            if experimental {
                try await connection.export(batteryProviderManagerInterface(adapter.path), at: adapter.path)
            }
        }
        for entry in entries.values.sorted(by: { $0.device.address < $1.device.address }) {
            try await exportDevice(entry)
        }
        guard try await connection.requestName(BlueZ.service) == .primaryOwner else {
            await connection.close()
            self.connection = nil
            throw DBusError.failed("org.bluez is already owned on this bus")
        }
    }

    /// Stops answering at once, like a crashed bluetoothd: the connection closes and the name is released.
    package func kill() async {
        // The connection goes first: a crashed bluetoothd answers nothing, so a pending `Pair` must end with the
        // bus's NoReply, not with the AuthenticationCanceled that aborting the pairing below would send back.
        await connection?.close()
        connection = nil
        for task in discoveryTasks.values { task.cancel() }
        discoveryTasks.removeAll()
        for index in adapters.indices { adapters[index].discovering = false }
        discoveringWithoutSession.removeAll()
        abortPairings()
        forgetBatteryProviders()
        agents.removeAll()
        defaultAgent = nil
        await gatt.connectionClosed()
    }

    /// Starts again after ``kill()`` with the same adapters and known devices.
    package func restart() async throws {
        await kill()
        try await start()
    }

    /// Sets how long a scan takes to find a device.
    package func setDiscoveryDelay(_ delay: Duration) {
        discoveryDelay = delay
    }

    /// Makes the next `times` StopDiscovery calls on the adapter at `path` answer `InProgress`, as bluetoothd does
    /// while the previous discovery command has not completed.
    package func answerStopDiscoveryInProgress(on path: ObjectPath, times: Int) {
        busyStopDiscoveryAnswers[path] = times
    }

    /// Makes the controller refuse the next StopDiscovery on the adapter at `path`, as Linux does when it gets the stop
    /// while its LE discovery ends by itself (every ten seconds) and bluetoothd is about to start it again. bluetoothd
    /// (src/adapter.c, `stop_discovery_complete` and `discovery_complete`, 5.66 and upstream) then answers `InProgress`,
    /// forgets the caller's session, and leaves `Discovering` true with no session: a second StopDiscovery answers
    /// "No discovery started", and only a new StartDiscovery and StopDiscovery set `Discovering` false again.
    package func rejectNextStopDiscovery(on path: ObjectPath) {
        rejectedStopDiscovery.insert(path)
    }

    /// Sets how long after answering StartDiscovery and StopDiscovery the `Discovering` property changes.
    package func setDiscoveringAnnouncementDelay(_ delay: Duration) {
        discoveringAnnouncementDelay = delay
    }

    /// Whether the simulated daemon is on the bus.
    package var isRunning: Bool { connection != nil }

    // MARK: Scripting

    /// Adds a known device to an adapter (`InterfacesAdded`).
    package func add(_ device: SimulatedDevice, adapter index: Int = 0) async throws {
        let entry = Entry(device: device, adapter: adapters[min(max(0, index), adapters.count - 1)].path)
        entries[device.address] = entry
        if connection != nil { try await exportDevice(entry) }
    }

    /// Removes a device (`InterfacesRemoved`).
    package func remove(_ address: BluetoothAddress) async {
        guard let entry = entries.removeValue(forKey: address) else { return }
        await gatt.forget(address)
        await connection?.unexport(at: address.devicePath(adapter: entry.adapter))
    }

    /// Connects or disconnects a device, as if it woke up or went to sleep.
    package func setConnected(_ address: BluetoothAddress, _ connected: Bool) async throws {
        try await update(address) { device in device.connected = connected }
    }

    /// Sets the battery level BlueZ reports.
    package func setBattery(_ address: BluetoothAddress, _ percentage: UInt8) async throws {
        try await update(address) { device in device.battery = percentage }
    }

    /// Powers an adapter on or off.
    package func setPowered(adapter index: Int, _ powered: Bool) async throws {
        let was = adapters[index].powered
        adapters[index].powered = powered
        if was != powered { await adapterPowerChanged(adapters[index].path, powered) }
        try await setAdapterProperty(adapters[index].path, "Powered", .boolean(powered))
        if !powered {
            adapters[index].discovering = false
            discoveringWithoutSession.remove(adapters[index].path)
            try await setAdapterProperty(adapters[index].path, "Discovering", .boolean(false))
        }
    }

    /// A device as the simulator holds it now.
    package func device(_ address: BluetoothAddress) -> SimulatedDevice? { entries[address]?.device }

    /// Every known device.
    package var devices: [SimulatedDevice] { entries.values.map(\.device).sorted { $0.address < $1.address } }

    /// The adapters.
    package var adapterList: [Adapter] { adapters }

    /// The object path of a device.
    package func path(of address: BluetoothAddress) -> ObjectPath? {
        entries[address].map { address.devicePath(adapter: $0.adapter) }
    }

    // MARK: Objects

    func update(_ address: BluetoothAddress, _ change: (inout SimulatedDevice) -> Void) async throws {
        guard var entry = entries[address] else {
            throw DBusError(BlueZ.Error.doesNotExist, "no device \(address)")
        }
        let before = entry.device
        change(&entry.device)
        if before.connected != entry.device.connected { entry.linkChanges += 1 }
        entries[address] = entry
        guard let connection else { return }
        let path = address.devicePath(adapter: entry.adapter)
        let device = entry.device
        func set(_ name: MemberName, _ value: DBusValue) async throws {
            try await connection.setProperty(name, of: BlueZ.deviceInterface, at: path, to: value)
        }
        if before.connected != device.connected {
            // As bluetoothd: GATT objects appear before ServicesResolved turns true and go after it turns false.
            if device.connected {
                if unannouncedConnections.contains(address) {
                    try await connection.setPropertyWithoutSignal(
                        "Connected", of: BlueZ.deviceInterface, at: path, to: .boolean(true))
                } else {
                    try await set("Connected", .boolean(true))
                }
                if announcesServicesResolvedFirst {
                    // bluetoothd 5.66's order on the bus: ServicesResolved, then the GATT objects' InterfacesAdded.
                    try await set("ServicesResolved", .boolean(true))
                    try await Task.sleep(for: .milliseconds(50))
                    try await exportGATT(entry)
                } else {
                    try await exportGATT(entry)
                    try await set("ServicesResolved", .boolean(true))
                }
                linkCameUp(address)
            } else {
                inputDevices?.remove(address)
                try await set("ServicesResolved", .boolean(false))
                await gatt.unexport(address)
                if let linger = connectedLingers[address] { try await Task.sleep(for: linger) }
                if unannouncedDisconnections.contains(address) {
                    try await connection.setPropertyWithoutSignal(
                        "Connected", of: BlueZ.deviceInterface, at: path, to: .boolean(false))
                } else {
                    try await set("Connected", .boolean(false))
                }
            }
        }
        if before.paired != device.paired {
            try await set("Paired", .boolean(device.paired))
            try await set("Bonded", .boolean(device.paired))
        }
        if before.trusted != device.trusted { try await set("Trusted", .boolean(device.trusted)) }
        if before.name != device.name { try await set("Alias", .string(device.name)) }
        if before.battery != device.battery {
            switch (before.battery, device.battery) {
            // As bluetoothd: a battery a provider supplies first keeps the device's Battery1 (battery.c: "path exists").
            case (nil, let level?) where providedBatteries[path] == nil:
                try await connection.export(batteryInterface(level, source: Self.gattBatterySource), at: path)
            case (_?, nil) where providedBatteries[path] == nil:
                await connection.unexport(BlueZ.batteryInterface, at: path)
            case (_?, _) where providedBatteries[path] != nil:
                break
            case (_?, let level?):
                try await connection.setProperty(
                    "Percentage", of: BlueZ.batteryInterface, at: path, to: .byte(level))
            default:
                break
            }
        }
    }

    private func setAdapterProperty(_ path: ObjectPath, _ name: MemberName, _ value: DBusValue) async throws {
        try await connection?.setProperty(name, of: BlueZ.adapterInterface, at: path, to: value)
    }

    func exportDevice(_ entry: Entry) async throws {
        guard let connection else { return }
        let path = entry.device.address.devicePath(adapter: entry.adapter)
        try await connection.export(deviceInterface(entry), at: path)
        if let level = entry.device.battery {
            try await connection.export(batteryInterface(level, source: Self.gattBatterySource), at: path)
        }
        if entry.device.connected { try await exportGATT(entry) }
    }

    /// Exports a connected device's GATT objects (``SimulatedDevice/gatt``) below it.
    func exportGATT(_ entry: Entry) async throws {
        guard let connection, let profile = entry.device.gatt else { return }
        let address = entry.device.address
        try await gatt.export(
            profile, for: address, at: address.devicePath(adapter: entry.adapter), on: connection
        ) { [weak self] in
            try? await self?.setConnected(address, false)
        }
    }

    /// The `Source` of the batteries bluetoothd's battery plugin reads (profiles/battery/battery.c).
    static let gattBatterySource = "GATT Battery Service"

    /// `org.bluez.Battery1`: `Percentage`, and `Source` only with experimental features (bluetoothd 5.66 marks it
    /// experimental).
    func batteryInterface(_ level: UInt8, source: String) -> DBusInterface {
        var properties = [DBusProperty("Percentage", type: .byte, initial: .byte(level))]
        if experimental {
            properties.append(DBusProperty("Source", type: .string, changes: .const, initial: .string(source)))
        }
        return DBusInterface(BlueZ.batteryInterface, properties: properties)
    }

    private func agentManagerInterface() -> DBusInterface {
        DBusInterface(
            BlueZ.agentManagerInterface,
            methods: [
                DBusMethod(
                    "RegisterAgent", inputs: [DBusArgument("agent", .objectPath), DBusArgument("capability", .string)]
                ) {
                    [weak self] call in
                    let (path, capability) = try call.decode(ObjectPath.self, String.self)
                    try await self?.registerAgent(sender: call.sender, path: path, capability: capability)
                    return []
                },
                DBusMethod("UnregisterAgent", inputs: [DBusArgument("agent", .objectPath)]) { [weak self] call in
                    let path = try call.decode(ObjectPath.self)
                    try await self?.unregisterAgent(sender: call.sender, path: path)
                    return []
                },
                DBusMethod("RequestDefaultAgent", inputs: [DBusArgument("agent", .objectPath)]) { [weak self] call in
                    let path = try call.decode(ObjectPath.self)
                    try await self?.requestDefaultAgent(sender: call.sender, path: path)
                    return []
                },
            ])
    }

    private func registerAgent(sender: BusName?, path: ObjectPath, capability: String) throws {
        guard let sender else { throw DBusError(BlueZ.Error.invalidArguments, "no sender") }
        let known = ["DisplayOnly", "DisplayYesNo", "KeyboardOnly", "NoInputNoOutput", "KeyboardDisplay", ""]
        guard known.contains(capability) else {
            throw DBusError(BlueZ.Error.invalidArguments, "unknown capability \(capability)")
        }
        guard agents[sender] == nil else { throw DBusError(BlueZ.Error.alreadyExists, "agent already registered") }
        agents[sender] = (path, capability.isEmpty ? "KeyboardDisplay" : capability)
    }

    private func unregisterAgent(sender: BusName?, path: ObjectPath) throws {
        guard let sender, agents[sender]?.path == path else {
            throw DBusError(BlueZ.Error.doesNotExist, "no such agent")
        }
        agents[sender] = nil
        if defaultAgent == sender { defaultAgent = nil }
    }

    private func requestDefaultAgent(sender: BusName?, path: ObjectPath) throws {
        guard let sender, agents[sender]?.path == path else {
            throw DBusError(BlueZ.Error.doesNotExist, "no such agent")
        }
        defaultAgent = sender
    }

    private func adapterInterface(_ adapter: Adapter) -> DBusInterface {
        let path = adapter.path
        return DBusInterface(
            BlueZ.adapterInterface,
            methods: [
                DBusMethod("StartDiscovery") { [weak self] _ in
                    try await self?.startDiscovery(path)
                    return []
                },
                DBusMethod("StopDiscovery") { [weak self] _ in
                    try await self?.stopDiscovery(path)
                    return []
                },
                DBusMethod(
                    "SetDiscoveryFilter", inputs: [DBusArgument("filter", .dictionary(key: .string, value: .variant))]
                ) {
                    call in
                    let filter = try call.decode([String: DBusValue].self)
                    let allowed: Set<String> = [
                        "UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern",
                    ]
                    if let unknown = filter.keys.first(where: { !allowed.contains($0) }) {
                        throw DBusError(BlueZ.Error.invalidArguments, "unknown filter key \(unknown)")
                    }
                    return []
                },
                DBusMethod("RemoveDevice", inputs: [DBusArgument("device", .objectPath)]) { [weak self] call in
                    let device = try call.decode(ObjectPath.self)
                    try await self?.removeDevice(device, from: path)
                    return []
                },
                DBusMethod("GetDiscoveryFilters", outputs: [DBusArgument("filters", .array(.string))]) { _ in
                    [.array(.string, ["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData"].map { .string($0) })]
                },
            ],
            properties: [
                DBusProperty("Address", type: .string, changes: .const, initial: .string(adapter.address.description)),
                DBusProperty("AddressType", type: .string, changes: .const, initial: .string("public")),
                DBusProperty("Name", type: .string, initial: .string(adapter.name)),
                DBusProperty(
                    "Alias", type: .string, access: .readWrite, initial: .string(adapter.name),
                    setter: { value, _ in value }),
                DBusProperty("Class", type: .uint32, initial: .uint32(0x7C010C)),
                DBusProperty(
                    "Powered", type: .boolean, access: .readWrite, initial: .boolean(adapter.powered),
                    setter: { [weak self] value, _ in
                        await self?.poweredWritten(path, value.boolValue ?? false)
                        return value
                    }),
                DBusProperty(
                    "Discoverable", type: .boolean, access: .readWrite, initial: .boolean(false),
                    setter: { value, _ in value }),
                DBusProperty(
                    "Pairable", type: .boolean, access: .readWrite, initial: .boolean(true),
                    setter: { value, _ in value }),
                DBusProperty("Discovering", type: .boolean, initial: .boolean(adapter.discovering)),
                DBusProperty(
                    "UUIDs", type: .array(.string),
                    initial: .array(.string, [.string("00001200-0000-1000-8000-00805f9b34fb")])),
                DBusProperty("Modalias", type: .string, changes: .const, initial: .string("usb:v1D6Bp0246d0548")),
            ])
    }

    private func poweredWritten(_ path: ObjectPath, _ powered: Bool) async {
        guard let index = adapters.firstIndex(where: { $0.path == path }) else { return }
        let was = adapters[index].powered
        adapters[index].powered = powered
        if was != powered { await adapterPowerChanged(path, powered) }
    }

    private func startDiscovery(_ path: ObjectPath) async throws {
        guard let index = adapters.firstIndex(where: { $0.path == path }) else { return }
        guard adapters[index].powered else { throw DBusError(BlueZ.Error.notReady, "Resource Not Ready") }
        if discoveringWithoutSession.remove(path) != nil {
            return  // a new session where Discovering stayed true: the property does not change
        }
        guard !adapters[index].discovering else {
            throw DBusError(BlueZ.Error.inProgress, "Operation already in progress")
        }
        adapters[index].discovering = true
        try await announceDiscovering(true, on: path)
        let delay = discoveryDelay
        discoveryTasks[path] = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.discoverDevices(on: path)
        }
    }

    private func discoverDevices(on path: ObjectPath) async {
        guard adapters.contains(where: { $0.path == path && $0.discovering }) else { return }
        for device in discoverable[path] ?? [] where entries[device.address] == nil {
            let entry = Entry(device: device, adapter: path)
            entries[device.address] = entry
            try? await exportDevice(entry)
        }
    }

    private func stopDiscovery(_ path: ObjectPath) async throws {
        guard let index = adapters.firstIndex(where: { $0.path == path }) else { return }
        guard adapters[index].discovering, !discoveringWithoutSession.contains(path) else {
            throw DBusError(BlueZ.Error.failed, "No discovery started")
        }
        if rejectedStopDiscovery.remove(path) != nil {
            discoveringWithoutSession.insert(path)
            throw DBusError(BlueZ.Error.inProgress, "Operation already in progress")
        }
        if let busy = busyStopDiscoveryAnswers[path], busy > 0 {
            busyStopDiscoveryAnswers[path] = busy - 1
            throw DBusError(BlueZ.Error.inProgress, "Operation already in progress")
        }
        adapters[index].discovering = false
        discoveryTasks.removeValue(forKey: path)?.cancel()
        try await announceDiscovering(false, on: path)
    }

    /// Changes the adapter's `Discovering` property now, or after ``discoveringAnnouncementDelay`` (then the method
    /// answers first, as BlueZ's does).
    private func announceDiscovering(_ discovering: Bool, on path: ObjectPath) async throws {
        let delay = discoveringAnnouncementDelay
        guard delay > .zero else {
            try await setAdapterProperty(path, "Discovering", .boolean(discovering))
            return
        }
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard let self, await self.adapters.first(where: { $0.path == path })?.discovering == discovering else {
                return
            }
            try? await self.setAdapterProperty(path, "Discovering", .boolean(discovering))
        }
    }

    private func removeDevice(_ devicePath: ObjectPath, from adapterPath: ObjectPath) async throws {
        guard
            let address = entries.first(where: {
                $0.value.adapter == adapterPath && $0.key.devicePath(adapter: adapterPath) == devicePath
            })?.key
        else { throw DBusError(BlueZ.Error.doesNotExist, "Does Not Exist") }
        await remove(address)
    }

    func deviceInterface(_ entry: Entry) -> DBusInterface {
        let device = entry.device
        let address = device.address
        var properties: [DBusProperty] = [
            DBusProperty("Address", type: .string, changes: .const, initial: .string(address.description)),
            DBusProperty("AddressType", type: .string, changes: .const, initial: .string(device.addressType)),
            DBusProperty("Name", type: .string, initial: .string(device.name)),
            DBusProperty(
                "Alias", type: .string, access: .readWrite, initial: .string(device.name),
                setter: { value, _ in value }),
            DBusProperty("Paired", type: .boolean, initial: .boolean(device.paired)),
            DBusProperty("Bonded", type: .boolean, initial: .boolean(device.paired)),
            DBusProperty(
                "Trusted", type: .boolean, access: .readWrite, initial: .boolean(device.trusted),
                setter: { [weak self] value, _ in
                    await self?.trustWritten(address, value.boolValue ?? false)
                    return value
                }),
            DBusProperty(
                "Blocked", type: .boolean, access: .readWrite, initial: .boolean(false), setter: { value, _ in value }),
            DBusProperty("LegacyPairing", type: .boolean, initial: .boolean(device.pairing == .requestsPinCode)),
            DBusProperty("Connected", type: .boolean, initial: .boolean(device.connected)),
            DBusProperty("ServicesResolved", type: .boolean, initial: .boolean(device.connected)),
            DBusProperty("UUIDs", type: .array(.string), initial: .array(.string, device.uuids.map { .string($0) })),
            DBusProperty("Adapter", type: .objectPath, changes: .const, initial: .objectPath(entry.adapter)),
        ]
        if let cod = device.classOfDevice {
            properties.append(DBusProperty("Class", type: .uint32, initial: .uint32(cod)))
        }
        if let appearance = device.appearance {
            properties.append(DBusProperty("Appearance", type: .uint16, initial: .uint16(appearance)))
        }
        if let icon = device.icon { properties.append(DBusProperty("Icon", type: .string, initial: .string(icon))) }
        if let modalias = device.modalias {
            properties.append(DBusProperty("Modalias", type: .string, initial: .string(modalias)))
        }
        if let rssi = device.rssi, !device.paired {
            properties.append(DBusProperty("RSSI", type: .int16, initial: .int16(rssi)))
        }
        return DBusInterface(
            BlueZ.deviceInterface,
            methods: [
                DBusMethod("Connect") { [weak self] _ in
                    try await self?.connectDevice(address)
                    return []
                },
                DBusMethod("Disconnect") { [weak self] _ in
                    await self?.countHealingCall(address, \.disconnect)
                    await self?.markDisconnectedByCall(address)
                    try await self?.disconnectDevice(address)
                    return []
                },
                DBusMethod("ConnectProfile", inputs: [DBusArgument("UUID", .string)]) { [weak self] call in
                    let uuid = try call.decode(String.self)
                    try await self?.connectProfile(address, uuid: uuid)
                    return []
                },
                DBusMethod("Pair") { [weak self] call in
                    try await self?.pair(address, caller: call.sender)
                    return []
                },
                DBusMethod("CancelPairing") { [weak self] _ in
                    try await self?.cancelPairing(address)
                    return []
                },
            ],
            properties: properties)
    }

    private func trustWritten(_ address: BluetoothAddress, _ trusted: Bool) {
        entries[address]?.device.trusted = trusted
    }

    /// `Device1.Connect`: after a `Disconnect` under way has taken the link down; a device already connected is
    /// answered at once, as bluetoothd does (`dev_connect` and `device_connect_profiles` in src/device.c answer a
    /// connected LE link, and `-EALREADY`, with success).
    func connectDevice(_ address: BluetoothAddress) async throws {
        countHealingCall(address, \.connect)
        if let pending = pendingDisconnects[address] { try? await pending.value }
        guard let entry = entries[address] else { throw DBusError(BlueZ.Error.doesNotExist, "Does Not Exist") }
        guard !entry.device.connected else { return }
        guard entry.device.paired || entry.device.discoverableOnly else {
            throw DBusError(BlueZ.Error.failed, "Connection refused: the device is not in range")
        }
        entries[address]?.autoConnectDisabled = false
        if let delay = connectionAnnouncementDelays[address] {
            Task {
                try? await Task.sleep(for: delay)
                try? await setConnected(address, true)
            }
            return
        }
        try await setConnected(address, true)
    }
}
