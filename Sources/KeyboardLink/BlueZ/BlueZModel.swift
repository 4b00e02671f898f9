import KeyboardLinkDBus

/// A live model of BlueZ's adapters and devices.
///
/// Built from `GetManagedObjects`, then kept current from `InterfacesAdded`, `InterfacesRemoved` and
/// `PropertiesChanged`. Signals are subscribed before the objects are read, and signals sent before that reply
/// are dropped (their effect is in it). When `org.bluez` loses its owner every object is gone; when it comes back
/// the model resynchronises from scratch.
package actor BlueZModel {
    /// What the model holds at one moment.
    package struct Snapshot: Sendable, Equatable {
        /// BlueZ owns its name on the bus.
        package var isBlueZRunning = false
        package var adapters: [ObjectPath: BlueZAdapter] = [:]
        package var devices: [ObjectPath: BlueZDevice] = [:]
        /// How many times each device's link went down since the model started: `Connected` or `ServicesResolved`
        /// turning false, a connected device going away, or BlueZ leaving the bus with it connected. A firmware
        /// session that failed compares it with the count from before it began, so that a link that dropped and
        /// came back before anyone looked still counts as dropped (`linkDrops(of:)`).
        package var linkDrops: [ObjectPath: UInt64] = [:]

        /// An empty snapshot: BlueZ not running, no adapter, no device.
        package init() {}

        /// An adapter is powered.
        package var isBluetoothAvailable: Bool { adapters.values.contains { $0.powered } }
        /// Some adapter is discovering.
        package var isDiscovering: Bool { adapters.values.contains { $0.discovering } }
    }

    /// One change: the snapshot after it and the object paths it touched (nil: everything, after a resync).
    package struct Update: Sendable {
        package var snapshot: Snapshot
        package var changedPaths: Set<ObjectPath>?
    }

    private enum Input: Sendable {
        case owner(BusName?)
        case signal(Message)
    }

    package let connection: BusConnection
    private var objects: [ObjectPath: [String: [String: DBusValue]]] = [:]
    /// The objects below each device (GATT services, characteristics, descriptors), so that looking up one
    /// keyboard's GATT objects does not scan every object of every device.
    private var objectsBelowDevice: [ObjectPath: Set<ObjectPath>] = [:]
    private var snapshot = Snapshot()
    private var owner: BusName?
    private var syncSerial: UInt32 = 0
    private var observers: [Int: AsyncStream<Update>.Continuation] = [:]
    private var nextObserver = 0
    private var consumer: Task<Void, Never>?
    private var feeders: [Task<Void, Never>] = []
    private var firstSync: CheckedContinuation<Void, Never>?
    private var hasSynced = false

    package init(connection: BusConnection) {
        self.connection = connection
    }

    /// Subscribes, reads the current state and keeps following it. Returns once the first state is loaded
    /// (or BlueZ is known to be absent).
    /// - Throws: ``DBusError`` when the bus refuses the subscriptions.
    package func start() async throws {
        guard consumer == nil else { return }
        let signals = try await connection.subscribe(to: MatchRule(sender: BlueZ.service))
        let owners = try await connection.ownerChanges(of: BlueZ.service)
        let (inputs, input) = AsyncStream<Input>.makeStream()
        // Owner changes and BlueZ's signals come from different senders, so their relative order does not
        // matter: an owner change resynchronises, and a signal from anyone but the current owner is dropped.
        feeders.append(
            Task {
                for await message in signals { input.yield(.signal(message)) }
            })
        feeders.append(
            Task {
                for await owner in owners { input.yield(.owner(owner)) }
                input.finish()
            })
        consumer = Task { [weak self] in
            for await event in inputs {
                guard let self else { return }
                await self.handle(event)
            }
        }
        if !hasSynced {
            await withCheckedContinuation { firstSync = $0 }
        }
    }

    /// Stops following BlueZ.
    package func stop() {
        consumer?.cancel()
        for feeder in feeders { feeder.cancel() }
        feeders.removeAll()
        consumer = nil
        for continuation in observers.values { continuation.finish() }
        observers.removeAll()
    }

    /// The current state.
    package func current() -> Snapshot { snapshot }

    /// Every update from now on, starting with the current state.
    package func updates() -> AsyncStream<Update> {
        let (stream, continuation) = AsyncStream<Update>.makeStream()
        let id = nextObserver
        nextObserver += 1
        observers[id] = continuation
        continuation.yield(Update(snapshot: snapshot, changedPaths: nil))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    private func removeObserver(_ id: Int) {
        observers[id] = nil
    }

    private func handle(_ event: Input) async {
        switch event {
        case .owner(let newOwner):
            owner = newOwner
            for (path, device) in snapshot.devices where device.connected || device.servicesResolved {
                snapshot.linkDrops[path, default: 0] += 1
            }
            objects.removeAll()
            objectsBelowDevice.removeAll()
            if newOwner != nil {
                await resync()
            } else {
                rebuildSnapshot()
            }
            publish(nil)
            if !hasSynced {
                hasSynced = true
                firstSync?.resume()
                firstSync = nil
            }
        case .signal(let message):
            guard let owner, message.sender == owner, message.serial > syncSerial else { return }
            if let changed = apply(message) {
                publish(changed)
            }
        }
    }

    private func resync() async {
        do {
            let reply = try await connection.call(
                destination: BlueZ.service, path: BlueZ.root, interface: .objectManager,
                member: "GetManagedObjects")
            let managed = try reply.decode([ObjectPath: [String: [String: DBusValue]]].self)
            objects = managed
            syncSerial = reply.serial
            objectsBelowDevice.removeAll()
            for path in managed.keys { index(path, present: true) }
        } catch {
            // BlueZ vanished between the owner change and the call: the next owner change resyncs.
            objects.removeAll()
            objectsBelowDevice.removeAll()
        }
        rebuildSnapshot()
    }

    private func rebuildSnapshot() {
        var fresh = Snapshot()
        fresh.isBlueZRunning = owner != nil
        fresh.linkDrops = snapshot.linkDrops
        for (path, interfaces) in objects {
            if let adapter = BlueZAdapter(path: path, interfaces: interfaces) { fresh.adapters[path] = adapter }
            if let device = BlueZDevice(path: path, interfaces: interfaces) { fresh.devices[path] = device }
        }
        snapshot = fresh
    }

    private func reparse(_ path: ObjectPath) {
        let interfaces = objects[path] ?? [:]
        let before = snapshot.devices[path]
        snapshot.adapters[path] = BlueZAdapter(path: path, interfaces: interfaces)
        let after = BlueZDevice(path: path, interfaces: interfaces)
        snapshot.devices[path] = after
        if let before,
            before.connected && after?.connected != true || before.servicesResolved && after?.servicesResolved != true
        {
            snapshot.linkDrops[path, default: 0] += 1
        }
    }

    /// How many times the device's link went down since the model started (``Snapshot/linkDrops``).
    package func linkDrops(of path: ObjectPath) -> UInt64 { snapshot.linkDrops[path, default: 0] }

    /// Applies one BlueZ signal; returns the paths it changed, nil when it changed nothing.
    private func apply(_ message: Message) -> Set<ObjectPath>? {
        guard let interface = message.interface, let member = message.member?.rawValue else { return nil }
        switch (interface, member) {
        case (.objectManager, "InterfacesAdded"):
            guard message.body.count == 2, case .objectPath(let path) = message.body[0],
                let added = try? [String: [String: DBusValue]](dbusValue: message.body[1])
            else { return nil }
            var interfaces = objects[path] ?? [:]
            for (name, properties) in added { interfaces[name] = properties }
            objects[path] = interfaces
            index(path, present: true)
            reparse(path)
            return [path]
        case (.objectManager, "InterfacesRemoved"):
            guard message.body.count == 2, case .objectPath(let path) = message.body[0],
                let removed = try? [String](dbusValue: message.body[1])
            else { return nil }
            guard var interfaces = objects[path] else { return nil }
            for name in removed { interfaces[name] = nil }
            objects[path] = interfaces.isEmpty ? nil : interfaces
            if interfaces.isEmpty { index(path, present: false) }
            reparse(path)
            return [path]
        case (.properties, "PropertiesChanged"):
            guard let path = message.path, message.body.count == 3, let name = message.body[0].stringValue,
                let changed = message.body[1].stringDictionary,
                let invalidated = message.body[2].arrayValue?.compactMap(\.stringValue),
                var interfaces = objects[path], var properties = interfaces[name]
            else { return nil }
            for (key, value) in changed { properties[key] = value.unwrapped }
            for key in invalidated { properties[key] = nil }
            // bluetoothd 5.66 can mark an LE device connected without announcing it: when the ATT channel of a
            // Device1.Connect comes up before the kernel's connection event, att_connect_cb sets the state and
            // device_add_connection then finds it "already connected" and emits nothing (src/device.c). Services
            // are only resolved over a live link, so ServicesResolved turning true means connected.
            if name == BlueZ.deviceInterface.rawValue, changed["ServicesResolved"]?.unwrapped.boolValue == true {
                properties["Connected"] = .boolean(true)
            }
            interfaces[name] = properties
            objects[path] = interfaces
            reparse(path)
            return [path]
        default:
            return nil
        }
    }

    private func publish(_ changed: Set<ObjectPath>?) {
        let update = Update(snapshot: snapshot, changedPaths: changed)
        for continuation in observers.values { continuation.yield(update) }
    }

    /// All properties of one object's interface, as the model holds them.
    package func properties(of path: ObjectPath, interface: InterfaceName) -> [String: DBusValue]? {
        objects[path]?[interface.rawValue]
    }

    /// Paths of objects below `path` that implement `interface` (GATT services and characteristics).
    package func objects(below path: ObjectPath, implementing interface: InterfaceName)
        -> [ObjectPath: [String: DBusValue]]
    {
        var result: [ObjectPath: [String: DBusValue]] = [:]
        if let device = Self.devicePath(of: path), device == path {
            for candidate in objectsBelowDevice[device] ?? [] {
                if let properties = objects[candidate]?[interface.rawValue] { result[candidate] = properties }
            }
            return result
        }
        for (candidate, interfaces) in objects where candidate != path && candidate.isDescendant(of: path) {
            if let properties = interfaces[interface.rawValue] { result[candidate] = properties }
        }
        return result
    }

    /// The device an object belongs to: `/org/bluez/hciN/dev_...` for it and everything below it.
    static func devicePath(of path: ObjectPath) -> ObjectPath? {
        let elements = path.rawValue.split(separator: "/", omittingEmptySubsequences: true)
        guard elements.count >= 4, elements[0] == "org", elements[1] == "bluez", elements[3].hasPrefix("dev_") else {
            return nil
        }
        return ObjectPath(validating: "/" + elements[0..<4].joined(separator: "/"))
    }

    private func index(_ path: ObjectPath, present: Bool) {
        guard let device = Self.devicePath(of: path), device != path else { return }
        if present {
            objectsBelowDevice[device, default: []].insert(path)
        } else {
            objectsBelowDevice[device]?.remove(path)
            if objectsBelowDevice[device]?.isEmpty == true { objectsBelowDevice[device] = nil }
        }
    }
}
