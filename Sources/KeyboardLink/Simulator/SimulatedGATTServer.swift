import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// The GATT side of the simulated `bluetoothd`: exports each connected keyboard's services, characteristics and
/// descriptors below its device object (`.../serviceXXXX/charXXXX/descXXXX`, as BlueZ names them) and answers
/// `ReadValue`, `WriteValue`, `StartNotify` and `StopNotify` like BlueZ, with BlueZ's error names.
///
/// ``SimulatedBlueZ`` exports a device's objects when it connects (before `ServicesResolved` turns true) and
/// removes them when it disconnects. The server keeps each device's values across connections; tests script them
/// (``setValue(_:of:occurrence:for:)``), slow reads down, inject faults and read what the server saw
/// (``statistics(for:)``).
package actor SimulatedGATTServer {
    /// Answers a write to one characteristic with the values to notify back (ZMK Studio's RPC answers requests
    /// written to its characteristic with indications).
    package typealias WriteResponder = @Sendable ([UInt8]) async -> [[UInt8]]

    enum Attribute: Sendable {
        case service(Int)
        case characteristic(service: Int, index: Int)
        case descriptor(service: Int, characteristic: Int, index: Int)
    }

    struct Runtime {
        var profile: SimulatedGATTProfile
        var exported = false
        /// Bumped on every connect and disconnect: a read that started in an earlier epoch fails.
        var epoch = 0
        var attributes: [ObjectPath: Attribute] = [:]
        /// Export order: services, then their characteristics and descriptors.
        var paths: [ObjectPath] = []
        var inFlightReads = 0
        /// Reads counted toward ``SimulatedGATTFaults/disconnectAtRead``.
        var faultReads = 0
        /// `StartNotify` calls counted toward ``SimulatedGATTFaults/dropLinkAtStartNotify``.
        var faultStartNotifies = 0
        var statistics = SimulatedGATTStatistics()
        var notifyClients: [ObjectPath: Set<BusName>] = [:]
        var disconnect: (@Sendable () async -> Void)?
        var responders: [BluetoothUUID: WriteResponder] = [:]

        func characteristic(_ attribute: Attribute) -> SimulatedGATTCharacteristic? {
            switch attribute {
            case .characteristic(let service, let index), .descriptor(let service, let index, _):
                return profile.services[service].characteristics[index]
            case .service:
                return nil
            }
        }

        func uuid(of attribute: Attribute) -> BluetoothUUID {
            switch attribute {
            case .service(let service):
                return profile.services[service].uuid
            case .characteristic(let service, let index):
                return profile.services[service].characteristics[index].uuid
            case .descriptor(let service, let characteristic, let index):
                return profile.services[service].characteristics[characteristic].descriptors[index].uuid
            }
        }

        func value(of attribute: Attribute) -> [UInt8] {
            switch attribute {
            case .service:
                return []
            case .characteristic(let service, let index):
                return profile.services[service].characteristics[index].value
            case .descriptor(let service, let characteristic, let index):
                return profile.services[service].characteristics[characteristic].descriptors[index].value
            }
        }

        mutating func setValue(_ value: [UInt8], of attribute: Attribute) {
            switch attribute {
            case .service:
                break
            case .characteristic(let service, let index):
                profile.services[service].characteristics[index].value = value
            case .descriptor(let service, let characteristic, let index):
                profile.services[service].characteristics[characteristic].descriptors[index].value = value
            }
        }

        func path(ofCharacteristic uuid: BluetoothUUID, occurrence: Int) -> ObjectPath? {
            guard let index = profile.characteristicIndices(uuid).dropFirst(occurrence).first else { return nil }
            return attributes.first { _, attribute in
                if case .characteristic(index.service, index.characteristic) = attribute { return true }
                return false
            }?.key
        }
    }

    private var devices: [BluetoothAddress: Runtime] = [:]
    private var connection: BusConnection?
    /// Devices between a `Device1.Disconnect` and their link going down: `StartNotify` is refused.
    private var disconnecting: Set<BluetoothAddress> = []
    /// Failed `StartNotify` calls waiting to be answered (``SimulatedGATTFaults/holdDroppedStartNotifyAnswer``).
    private var heldAnswers: [BluetoothAddress: [CheckedContinuation<Void, Never>]] = [:]

    /// A server with no devices; ``SimulatedBlueZ`` feeds it.
    package init() {}

    // MARK: Scripting

    /// What the server saw for a device; empty for a device it never served.
    package func statistics(for address: BluetoothAddress) -> SimulatedGATTStatistics {
        devices[address]?.statistics ?? SimulatedGATTStatistics()
    }

    /// Starts counting again for a device.
    package func resetStatistics(for address: BluetoothAddress) {
        devices[address]?.statistics = SimulatedGATTStatistics()
    }

    /// The profile a device serves now (its values as scripted); nil for a device never connected.
    package func profile(for address: BluetoothAddress) -> SimulatedGATTProfile? {
        devices[address]?.profile
    }

    /// Sets how long each read of a device takes. Applies to devices that have connected once; configure others
    /// through ``SimulatedDevice/gatt``.
    package func setReadDelay(_ delay: Duration, for address: BluetoothAddress) {
        devices[address]?.profile.readDelay = delay
    }

    /// Sets the faults a device injects, counting ``SimulatedGATTFaults/disconnectAtRead`` and
    /// ``SimulatedGATTFaults/dropLinkAtStartNotify`` from now. Applies to devices that have connected once;
    /// configure others through ``SimulatedDevice/gatt``.
    package func setFaults(_ faults: SimulatedGATTFaults, for address: BluetoothAddress) {
        devices[address]?.profile.faults = faults
        devices[address]?.faultReads = 0
        devices[address]?.faultStartNotifies = 0
    }

    /// Answers the failed `StartNotify` calls held for a device (``SimulatedGATTFaults/holdDroppedStartNotifyAnswer``);
    /// returns how many there were.
    @discardableResult
    package func releaseHeldAnswers(for address: BluetoothAddress) -> Int {
        let held = heldAnswers.removeValue(forKey: address) ?? []
        for answer in held { answer.resume() }
        return held.count
    }

    /// How many failed `StartNotify` calls are held for a device.
    package func heldAnswerCount(for address: BluetoothAddress) -> Int { heldAnswers[address]?.count ?? 0 }

    /// Changes the value of the `occurrence`-th characteristic with `uuid`; clients that started notifications get
    /// it as a notification (a `Value` change), as when a keyboard's battery drains.
    package func setValue(_ value: [UInt8], of uuid: BluetoothUUID, occurrence: Int = 0, for address: BluetoothAddress)
        async
    {
        guard let runtime = devices[address],
            let index = runtime.profile.characteristicIndices(uuid).dropFirst(occurrence).first
        else { return }
        let attribute = Attribute.characteristic(service: index.service, index: index.characteristic)
        devices[address]?.setValue(value, of: attribute)
        if let path = runtime.path(ofCharacteristic: uuid, occurrence: occurrence) {
            await notify(address, path, value)
        }
    }

    /// Whether some client has notifications of the `occurrence`-th characteristic with `uuid` on.
    package func isNotifying(_ uuid: BluetoothUUID, occurrence: Int = 0, for address: BluetoothAddress) -> Bool {
        guard let runtime = devices[address], let path = runtime.path(ofCharacteristic: uuid, occurrence: occurrence)
        else { return false }
        return !(runtime.notifyClients[path] ?? []).isEmpty
    }

    /// The object path of the `occurrence`-th characteristic with `uuid` of a connected device.
    package func path(ofCharacteristic uuid: BluetoothUUID, occurrence: Int = 0, for address: BluetoothAddress)
        -> ObjectPath?
    {
        guard let runtime = devices[address], runtime.exported else { return nil }
        return runtime.path(ofCharacteristic: uuid, occurrence: occurrence)
    }

    /// Whether a `Device1.Disconnect` of the device is under way, its link still up.
    package func isDisconnecting(_ address: BluetoothAddress) -> Bool {
        disconnecting.contains(address)
    }

    /// Answers each write to characteristics with `uuid` of a device with the values `responder` returns, sent as
    /// notifications to the clients that started them. Applies to devices that have connected once.
    package func setWriteResponder(
        for address: BluetoothAddress, characteristic uuid: BluetoothUUID, _ responder: @escaping WriteResponder
    ) {
        devices[address]?.responders[uuid] = responder
    }

    // MARK: Hooks for SimulatedBlueZ

    /// Marks a device as being disconnected by `Device1.Disconnect` (or no longer).
    func setDisconnecting(_ address: BluetoothAddress, _ on: Bool) {
        if on {
            disconnecting.insert(address)
        } else {
            disconnecting.remove(address)
        }
    }

    /// Exports a connected device's GATT objects below `devicePath`. The first time a device is seen its
    /// `profile` is taken; later connections keep the values scripted since.
    /// - Parameter disconnect: drops the device's connection (for the disconnect fault).
    func export(
        _ profile: SimulatedGATTProfile, for address: BluetoothAddress, at devicePath: ObjectPath,
        on connection: BusConnection, disconnect: @escaping @Sendable () async -> Void
    ) async throws {
        self.connection = connection
        var runtime = devices[address] ?? Runtime(profile: profile)
        guard !runtime.exported else { return }
        runtime.epoch += 1
        runtime.disconnect = disconnect
        runtime.attributes = [:]
        runtime.paths = []
        var interfaces: [(ObjectPath, DBusInterface)] = []
        var handle: UInt16 = 0x0010
        for (serviceIndex, service) in runtime.profile.services.enumerated() {
            let servicePath = devicePath.appending(element: "service" + Self.hex(handle))
            interfaces.append((servicePath, Self.serviceInterface(service, device: devicePath, handle: handle)))
            runtime.attributes[servicePath] = .service(serviceIndex)
            handle &+= 1
            for (index, characteristic) in service.characteristics.enumerated() {
                let path = servicePath.appending(element: "char" + Self.hex(handle))
                interfaces.append(
                    (
                        path,
                        characteristicInterface(
                            characteristic, address: address, path: path, service: servicePath, handle: handle &+ 1,
                            mtu: runtime.profile.mtu)
                    ))
                runtime.attributes[path] = .characteristic(service: serviceIndex, index: index)
                handle &+= 2
                for (descriptorIndex, descriptor) in characteristic.descriptors.enumerated() {
                    let descriptorPath = path.appending(element: "desc" + Self.hex(handle))
                    interfaces.append(
                        (
                            descriptorPath,
                            descriptorInterface(
                                descriptor, address: address, path: descriptorPath, characteristic: path,
                                handle: handle)
                        ))
                    runtime.attributes[descriptorPath] = .descriptor(
                        service: serviceIndex, characteristic: index, index: descriptorIndex)
                    handle &+= 1
                }
            }
        }
        runtime.paths = interfaces.map(\.0)
        runtime.exported = true
        runtime.notifyClients = [:]
        devices[address] = runtime
        for (path, interface) in interfaces {
            try await connection.export(interface, at: path)
        }
    }

    /// Removes a device's GATT objects (it disconnected): reads in flight fail, notification sessions end.
    func unexport(_ address: BluetoothAddress) async {
        guard var runtime = devices[address], runtime.exported else { return }
        runtime.exported = false
        runtime.epoch += 1
        runtime.notifyClients = [:]
        let paths = runtime.paths
        runtime.paths = []
        runtime.attributes = [:]
        devices[address] = runtime
        // Deepest first, as bluetoothd removes them.
        for path in paths.reversed() {
            await connection?.unexport(at: path)
        }
    }

    /// Forgets a removed device.
    func forget(_ address: BluetoothAddress) async {
        await unexport(address)
        devices[address] = nil
    }

    /// The simulated daemon's connection closed: every object went with it.
    func connectionClosed() {
        connection = nil
        for address in devices.keys {
            devices[address]?.exported = false
            devices[address]?.epoch += 1
            devices[address]?.notifyClients = [:]
            devices[address]?.attributes = [:]
            devices[address]?.paths = []
        }
    }

    // MARK: Methods

    private func read(_ address: BluetoothAddress, _ path: ObjectPath, options: [String: DBusValue]) async throws
        -> [UInt8]
    {
        let offset = try Self.offset(options)
        guard let runtime = devices[address], runtime.exported, let attribute = runtime.attributes[path] else {
            throw DBusError.unknownObject("no object at \(path)")
        }
        let epoch = runtime.epoch
        let uuid = runtime.uuid(of: attribute)
        if runtime.profile.faults.notPermitted.contains(uuid) {
            throw DBusError(BlueZ.Error.notPermitted, "Read not permitted")
        }
        if case .characteristic = attribute, let characteristic = runtime.characteristic(attribute),
            !characteristic.flags.contains(.read)
        {
            throw DBusError(BlueZ.Error.notPermitted, "Read not permitted")
        }
        if runtime.profile.faults.inProgressAnswers > 0 {
            devices[address]?.profile.faults.inProgressAnswers -= 1
            throw DBusError(BlueZ.Error.inProgress, "In Progress")
        }
        beginRead(address)
        if let limit = devices[address]?.profile.faults.disconnectAtRead, devices[address]?.faultReads == limit {
            devices[address]?.profile.faults.disconnectAtRead = nil
            endRead(address)
            await devices[address]?.disconnect?()
            throw DBusError(BlueZ.Error.failed, "Not connected")
        }
        let delay = runtime.profile.readDelay
        if delay > .zero { try? await Task.sleep(for: delay) }
        endRead(address)
        guard let now = devices[address], now.exported, now.epoch == epoch else {
            throw DBusError(BlueZ.Error.failed, "Not connected")
        }
        let value = now.value(of: attribute)
        guard offset <= value.count else { throw DBusError(invalidOffset, "Invalid offset") }
        var result = Array(value[offset...])
        if let limit = now.characteristic(attribute)?.readChunkLimit, case .characteristic = attribute {
            result = Array(result.prefix(limit))
        }
        // bluetoothd keeps what it read in the Value property.
        if offset == 0 {
            let interface: InterfaceName =
                if case .descriptor = attribute { BlueZ.gattDescriptorInterface } else {
                    BlueZ.gattCharacteristicInterface
                }
            try? await connection?.setProperty("Value", of: interface, at: path, to: .bytes(value))
        }
        return result
    }

    private func beginRead(_ address: BluetoothAddress) {
        guard var runtime = devices[address] else { return }
        runtime.statistics.reads += 1
        runtime.faultReads += 1
        runtime.inFlightReads += 1
        runtime.statistics.maximumConcurrentReads = max(
            runtime.statistics.maximumConcurrentReads, runtime.inFlightReads)
        devices[address] = runtime
    }

    private func endRead(_ address: BluetoothAddress) {
        devices[address]?.inFlightReads -= 1
    }

    private func write(
        _ address: BluetoothAddress, _ path: ObjectPath, value bytes: [UInt8], options: [String: DBusValue]
    ) async throws {
        let offset = try Self.offset(options)
        let type = options["type"]?.stringValue ?? "request"
        guard GATTWriteType(rawValue: type) != nil else {
            throw DBusError(BlueZ.Error.invalidArguments, "Invalid arguments in method call: type \(type)")
        }
        guard let runtime = devices[address], runtime.exported, let attribute = runtime.attributes[path] else {
            throw DBusError.unknownObject("no object at \(path)")
        }
        if case .characteristic = attribute, let characteristic = runtime.characteristic(attribute) {
            let needed: GATTCharacteristicFlags =
                switch type {
                case "command": .writeWithoutResponse
                case "reliable": .reliableWrite
                default: .write
                }
            guard characteristic.flags.contains(needed) else {
                throw DBusError(BlueZ.Error.notPermitted, "Write not permitted")
            }
        }
        let old = runtime.value(of: attribute)
        guard offset <= old.count else { throw DBusError(invalidOffset, "Invalid offset") }
        let uuid = runtime.uuid(of: attribute)
        devices[address]?.setValue(Array(old.prefix(offset)) + bytes, of: attribute)
        devices[address]?.statistics.writes.append(.init(uuid: uuid, value: bytes, type: type))
        if case .characteristic = attribute, let responder = runtime.responders[uuid] {
            for reply in await responder(bytes) {
                devices[address]?.setValue(reply, of: attribute)
                await notify(address, path, reply)
            }
        }
    }

    private func startNotify(_ address: BluetoothAddress, _ path: ObjectPath, sender: BusName?) async throws {
        guard let runtime = devices[address], runtime.exported, let attribute = runtime.attributes[path],
            let characteristic = runtime.characteristic(attribute), let sender
        else { throw DBusError.unknownObject("no object at \(path)") }
        // As bluetoothd checks first (characteristic_start_notify in src/gatt-client.c).
        guard !disconnecting.contains(address) else {
            devices[address]?.statistics.startNotifyRefusedWhileDisconnecting += 1
            throw DBusError(BlueZ.Error.notConnected, "Not Connected")
        }
        guard characteristic.flags.canNotify else {
            throw DBusError(BlueZ.Error.notSupported, "Operation is not supported")
        }
        devices[address]?.faultStartNotifies += 1
        if let limit = runtime.profile.faults.dropLinkAtStartNotify, devices[address]?.faultStartNotifies == limit {
            devices[address]?.profile.faults.dropLinkAtStartNotify = nil
            await runtime.disconnect?()
            if runtime.profile.faults.holdDroppedStartNotifyAnswer {
                await withCheckedContinuation { heldAnswers[address, default: []].append($0) }
            }
            throw DBusError(BlueZ.Error.failed, "Operation failed with ATT error: 0x0e")
        }
        // bluetoothd keeps one session per client: a second StartNotify from it succeeds without a new one.
        guard devices[address]?.notifyClients[path, default: []].insert(sender).inserted == true else { return }
        devices[address]?.statistics.notifySessionsStarted += 1
        try? await connection?.setProperty(
            "Notifying", of: BlueZ.gattCharacteristicInterface, at: path, to: .boolean(true))
    }

    private func stopNotify(_ address: BluetoothAddress, _ path: ObjectPath, sender: BusName?) async throws {
        guard let runtime = devices[address], runtime.exported, runtime.attributes[path] != nil else {
            throw DBusError.unknownObject("no object at \(path)")
        }
        devices[address]?.statistics.stopNotifyCalls += 1
        let delay = runtime.profile.faults.stopNotifyDelay
        if delay > .zero { try? await Task.sleep(for: delay) }
        guard let sender, devices[address]?.notifyClients[path]?.remove(sender) != nil else {
            throw DBusError(BlueZ.Error.failed, "No notify session started")
        }
        devices[address]?.statistics.notifySessionsStopped += 1
        if devices[address]?.notifyClients[path]?.isEmpty ?? true {
            try? await connection?.setProperty(
                "Notifying", of: BlueZ.gattCharacteristicInterface, at: path, to: .boolean(false))
        }
    }

    /// Sends a notification: a `Value` change, emitted even when the value repeats (as bluetoothd does).
    private func notify(_ address: BluetoothAddress, _ path: ObjectPath, _ value: [UInt8]) async {
        guard let connection, let runtime = devices[address], runtime.exported,
            !(runtime.notifyClients[path] ?? []).isEmpty
        else { return }
        let name: MemberName = "Value"
        let interface = BlueZ.gattCharacteristicInterface
        let repeated = await connection.property(name, of: interface, at: path) == .bytes(value)
        try? await connection.setProperty(name, of: interface, at: path, to: .bytes(value))
        if repeated {
            try? await connection.emitSignal(
                "PropertiesChanged", of: .properties, at: path,
                [
                    .string(interface.rawValue),
                    .dictionary(
                        key: .string, value: .variant,
                        [DBusDictionaryEntry(key: .string("Value"), value: .variant(.bytes(value)))]),
                    .array(.string, []),
                ])
        }
    }

    // MARK: Interfaces

    private let invalidOffset: ErrorName = "org.bluez.Error.InvalidOffset"

    private static func offset(_ options: [String: DBusValue]) throws -> Int {
        guard let value = options["offset"] else { return 0 }
        guard case .uint16(let offset) = value.unwrapped else {
            throw DBusError(BlueZ.Error.invalidArguments, "Invalid arguments in method call: offset is not a uint16")
        }
        return Int(offset)
    }

    private static func hex(_ handle: UInt16) -> String {
        String(handle, radix: 16).leftPadded(to: 4)
    }

    private static func serviceInterface(_ service: SimulatedGATTService, device: ObjectPath, handle: UInt16)
        -> DBusInterface
    {
        DBusInterface(
            BlueZ.gattServiceInterface,
            properties: [
                DBusProperty("UUID", type: .string, changes: .const, initial: .string(service.uuid.description)),
                DBusProperty("Device", type: .objectPath, changes: .const, initial: .objectPath(device)),
                DBusProperty("Primary", type: .boolean, changes: .const, initial: .boolean(true)),
                DBusProperty("Includes", type: .array(.objectPath), changes: .const, initial: .array(.objectPath, [])),
                DBusProperty("Handle", type: .uint16, changes: .const, initial: .uint16(handle)),
            ])
    }

    private func characteristicInterface(
        _ characteristic: SimulatedGATTCharacteristic, address: BluetoothAddress, path: ObjectPath,
        service: ObjectPath, handle: UInt16, mtu: UInt16
    ) -> DBusInterface {
        var properties = [
            DBusProperty("UUID", type: .string, changes: .const, initial: .string(characteristic.uuid.description)),
            DBusProperty("Service", type: .objectPath, changes: .const, initial: .objectPath(service)),
            DBusProperty("Value", type: .array(.byte), initial: .bytes([])),
            DBusProperty(
                "Flags", type: .array(.string), changes: .const,
                initial: .array(.string, characteristic.flags.bluezNames.map { .string($0) })),
            DBusProperty(
                "MTU", type: .uint16,
                initial: .uint16(characteristic.readChunkLimit.map { UInt16(clamping: $0 + 1) } ?? mtu)),
            DBusProperty("Handle", type: .uint16, changes: .const, initial: .uint16(handle)),
        ]
        if characteristic.flags.canNotify {
            properties.append(DBusProperty("Notifying", type: .boolean, initial: .boolean(false)))
        }
        return DBusInterface(
            BlueZ.gattCharacteristicInterface,
            methods: [
                DBusMethod("ReadValue", arguments: ["options"], result: "value") {
                    [weak self] (options: [String: DBusValue]) -> [UInt8] in
                    guard let self else { throw DBusError.unknownObject("no object at \(path)") }
                    return try await self.read(address, path, options: options)
                },
                DBusMethod("WriteValue", arguments: ["value", "options"]) {
                    [weak self] (value: [UInt8], options: [String: DBusValue]) in
                    try await self?.write(address, path, value: value, options: options)
                },
                DBusMethod("StartNotify", arguments: []) { [weak self] (call: MethodCallContext) in
                    try await self?.startNotify(address, path, sender: call.sender)
                },
                DBusMethod("StopNotify", arguments: []) { [weak self] (call: MethodCallContext) in
                    try await self?.stopNotify(address, path, sender: call.sender)
                },
            ],
            properties: properties)
    }

    private func descriptorInterface(
        _ descriptor: SimulatedGATTDescriptor, address: BluetoothAddress, path: ObjectPath, characteristic: ObjectPath,
        handle: UInt16
    ) -> DBusInterface {
        return DBusInterface(
            BlueZ.gattDescriptorInterface,
            methods: [
                DBusMethod("ReadValue", arguments: ["options"], result: "value") {
                    [weak self] (options: [String: DBusValue]) -> [UInt8] in
                    guard let self else { throw DBusError.unknownObject("no object at \(path)") }
                    return try await self.read(address, path, options: options)
                },
                DBusMethod("WriteValue", arguments: ["value", "options"]) {
                    [weak self] (value: [UInt8], options: [String: DBusValue]) in
                    try await self?.write(address, path, value: value, options: options)
                },
            ],
            properties: [
                DBusProperty("UUID", type: .string, changes: .const, initial: .string(descriptor.uuid.description)),
                DBusProperty(
                    "Characteristic", type: .objectPath, changes: .const, initial: .objectPath(characteristic)),
                DBusProperty("Value", type: .array(.byte), initial: .bytes([])),
                DBusProperty(
                    "Flags", type: .array(.string), changes: .const, initial: .array(.string, [.string("read")])),
                DBusProperty("Handle", type: .uint16, changes: .const, initial: .uint16(handle)),
            ])
    }
}
