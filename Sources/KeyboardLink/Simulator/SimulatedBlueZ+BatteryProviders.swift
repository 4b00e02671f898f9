import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// `org.bluez.BatteryProviderManager1`, as bluetoothd 5.66 serves it (src/battery.c), with experimental features
/// on (`-E`; without them the interface is not there):
///
/// - `RegisterBatteryProvider(o root)` on an adapter; the same root twice is `AlreadyExists`. bluetoothd then
///   reads the provider's objects (`GetManagedObjects` at the root, from the caller's connection) and follows their
///   `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged`.
/// - Each `org.bluez.BatteryProvider1` object names its `Device`; the battery is published as `org.bluez.Battery1`
///   on that device's own path, with `Percentage` and `Source`. A device that is not one of that adapter's known
///   devices is ignored; so is one that already has a battery (its own, from the GATT Battery Service, or another
///   provider's): one `Battery1` per device.
/// - `UnregisterBatteryProvider(o)` from another connection, or of a root never registered, is `DoesNotExist`. A
///   provider that leaves the bus or unregisters takes its batteries with it.
extension SimulatedBlueZ {
    struct BatteryProviderKey: Hashable {
        var adapter: ObjectPath
        var root: ObjectPath
    }

    struct BatteryProvider {
        var owner: BusName
        var task: Task<Void, Never>
    }

    struct ProvidedBattery {
        var provider: BatteryProviderKey
        /// The provider's object that supplies it.
        var object: ObjectPath
    }

    /// Turns experimental features on or off; takes effect at the next ``start()``.
    package func setExperimental(_ enabled: Bool) {
        experimental = enabled
    }

    /// The batteries providers supply now: device path and the provider's object.
    package var providedBatteryObjects: [ObjectPath: ObjectPath] {
        providedBatteries.mapValues(\.object)
    }

    func batteryProviderManagerInterface(_ adapter: ObjectPath) -> DBusInterface {
        DBusInterface(
            BlueZ.batteryProviderManagerInterface,
            methods: [
                DBusMethod("RegisterBatteryProvider", inputs: [DBusArgument("provider", .objectPath)]) {
                    [weak self] call in
                    let root = try call.decode(ObjectPath.self)
                    guard let sender = call.sender else { throw DBusError(BlueZ.Error.invalidArguments, "no sender") }
                    try await self?.registerBatteryProvider(adapter: adapter, root: root, owner: sender)
                    return []
                },
                DBusMethod("UnregisterBatteryProvider", inputs: [DBusArgument("provider", .objectPath)]) {
                    [weak self] call in
                    let root = try call.decode(ObjectPath.self)
                    try await self?.unregisterBatteryProvider(adapter: adapter, root: root, caller: call.sender)
                    return []
                },
            ])
    }

    func registerBatteryProvider(adapter: ObjectPath, root: ObjectPath, owner: BusName) async throws {
        let key = BatteryProviderKey(adapter: adapter, root: root)
        guard batteryProviders[key] == nil else {
            throw DBusError(BlueZ.Error.alreadyExists, "Provider already exists")
        }
        guard let connection else { return }
        // As GDBusClient: follow the provider's signals first, then read its objects.
        let signals = try await connection.subscribe(to: MatchRule(sender: owner))
        let owners = try await connection.ownerChanges(of: owner)
        let task = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await current in owners where current == nil {
                        await self?.providerLeft(key)
                        return
                    }
                }
                group.addTask {
                    guard let self else { return }
                    await self.readProviderObjects(key, owner: owner)
                    for await message in signals {
                        await self.providerSignal(key, message)
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
        batteryProviders[key] = BatteryProvider(owner: owner, task: task)
    }

    func unregisterBatteryProvider(adapter: ObjectPath, root: ObjectPath, caller: BusName?) async throws {
        let key = BatteryProviderKey(adapter: adapter, root: root)
        guard let provider = batteryProviders[key], provider.owner == caller else {
            throw DBusError(BlueZ.Error.doesNotExist, "Provider does not exist")
        }
        await providerLeft(key)
    }

    /// The provider left or unregistered: its batteries go.
    func providerLeft(_ key: BatteryProviderKey) async {
        guard let provider = batteryProviders.removeValue(forKey: key) else { return }
        provider.task.cancel()
        for (device, battery) in providedBatteries where battery.provider == key {
            await removeProvidedBattery(device)
        }
    }

    /// On ``kill()``: bluetoothd's providers end with it.
    func forgetBatteryProviders() {
        for provider in batteryProviders.values { provider.task.cancel() }
        batteryProviders.removeAll()
        providedBatteries.removeAll()
    }

    private func readProviderObjects(_ key: BatteryProviderKey, owner: BusName) async {
        guard let connection else { return }
        let objects: [ObjectPath: [String: [String: DBusValue]]]
        do {
            objects = try await connection.call(
                destination: owner, path: key.root, interface: .objectManager, member: "GetManagedObjects", []
            ).decode([ObjectPath: [String: [String: DBusValue]]].self)
        } catch {
            return
        }
        for (object, interfaces) in objects.sorted(by: { $0.key < $1.key }) {
            await providedObjectAdded(key, object, interfaces)
        }
    }

    private func providerSignal(_ key: BatteryProviderKey, _ message: Message) async {
        guard batteryProviders[key] != nil, let member = message.member?.rawValue,
            let path = message.path,
            path == key.root || path.rawValue.hasPrefix(key.root.rawValue + "/")
                || message.interface == .objectManager
        else { return }
        switch (message.interface, member) {
        case (.objectManager?, "InterfacesAdded"):
            guard let (object, interfaces) = try? message.decode(ObjectPath.self, [String: [String: DBusValue]].self)
            else { return }
            await providedObjectAdded(key, object, interfaces)
        case (.objectManager?, "InterfacesRemoved"):
            guard let (object, names) = try? message.decode(ObjectPath.self, [String].self),
                names.contains(BlueZ.batteryProviderInterface.rawValue)
            else { return }
            if let device = providedBatteries.first(where: { $0.value.provider == key && $0.value.object == object })?
                .key
            {
                await removeProvidedBattery(device)
            }
        case (.properties?, "PropertiesChanged"):
            guard
                let (interface, changed, _) = try? message.decode(String.self, [String: DBusValue].self, [String].self),
                interface == BlueZ.batteryProviderInterface.rawValue,
                let level = changed["Percentage"]?.unwrapped.integerValue, (0...100).contains(level),
                let device = providedBatteries.first(where: { $0.value.provider == key && $0.value.object == path })?
                    .key
            else { return }
            try? await connection?.setProperty(
                "Percentage", of: BlueZ.batteryInterface, at: device, to: .byte(UInt8(level)))
        default:
            break
        }
    }

    private func providedObjectAdded(
        _ key: BatteryProviderKey, _ object: ObjectPath, _ interfaces: [String: [String: DBusValue]]
    ) async {
        guard let connection, let properties = interfaces[BlueZ.batteryProviderInterface.rawValue],
            case .objectPath(let device)? = properties["Device"]?.unwrapped
        else { return }
        // bluetoothd: the device must be one of this adapter's known devices ("Ignoring non-existent device path").
        guard
            let entry = entries.values.first(where: {
                $0.adapter == key.adapter && $0.device.address.devicePath(adapter: $0.adapter) == device
            })
        else { return }
        // One Battery1 per device: its own (GATT Battery Service) or the first provider's.
        guard entry.device.battery == nil, providedBatteries[device] == nil else { return }
        let source = properties["Source"]?.unwrapped.stringValue ?? ""
        let level = properties["Percentage"]?.unwrapped.integerValue.flatMap { (0...100).contains($0) ? $0 : nil }
        providedBatteries[device] = ProvidedBattery(provider: key, object: object)
        var exported = [DBusProperty("Percentage", type: .byte, initial: .byte(UInt8(level ?? 0)))]
        if experimental, !source.isEmpty {
            exported.append(DBusProperty("Source", type: .string, changes: .const, initial: .string(source)))
        }
        try? await connection.export(DBusInterface(BlueZ.batteryInterface, properties: exported), at: device)
    }

    private func removeProvidedBattery(_ device: ObjectPath) async {
        providedBatteries[device] = nil
        await connection?.unexport(BlueZ.batteryInterface, at: device)
    }
}
