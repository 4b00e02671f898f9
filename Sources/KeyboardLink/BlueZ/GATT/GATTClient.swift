import KeyboardLinkDBus

/// A GATT client for one BlueZ device: reads, writes and notifications on the `GattCharacteristic1` and
/// `GattDescriptor1` objects BlueZ exports below the device, found through the live ``BlueZModel``.
///
/// Every operation is one D-Bus call to `org.bluez`; many may run at once (BlueZ queues them on the link), so
/// callers read in parallel. BlueZ's errors arrive as ``GATTError``; `InProgress` is retried per
/// ``retryPolicy``. This is the transport the keymap drivers build on (ZMK Studio RPC over one characteristic:
/// ``write(_:to:type:offset:)`` for requests, ``notifications(from:)`` for responses).
package struct GATTClient: Sendable {
    /// The bus connection the calls go through.
    package let connection: BusConnection
    /// The live model the GATT objects are found in.
    package let model: BlueZModel
    /// The device's object path (`/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`).
    package let device: ObjectPath
    /// How `InProgress` answers are retried.
    package var retryPolicy: GATTRetryPolicy
    /// How long one call may wait for BlueZ's answer.
    package var callTimeout: Duration

    /// A client for `device`.
    package init(
        connection: BusConnection, model: BlueZModel, device: ObjectPath, retryPolicy: GATTRetryPolicy = .standard,
        callTimeout: Duration = .seconds(10)
    ) {
        self.connection = connection
        self.model = model
        self.device = device
        self.retryPolicy = retryPolicy
        self.callTimeout = callTimeout
    }

    // MARK: Discovery

    /// Waits until the device is connected with its services resolved (BlueZ has exported every GATT object),
    /// for at most `timeout`.
    /// - Parameter waitForConnection: false (the default) fails at once when the device is, or becomes,
    ///   disconnected: reading a sleeping keyboard is pointless. True waits for the connection too, for a caller
    ///   that has just called `Connect()` (the model may not have seen `Connected` change yet).
    /// - Throws: ``GATTError`` `.objectGone` when BlueZ drops the device, `.notConnected` when it is disconnected
    ///   (or still, at the deadline), `.servicesNotResolved` when it is connected but not resolved by then.
    package func waitUntilServicesResolved(timeout: Duration = .seconds(10), waitForConnection: Bool = false)
        async throws(GATTError)
    {
        let path = device
        let operation = "wait for services of \(path)"
        let updates = await model.updates()
        let resolved: Bool
        do {
            resolved = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await update in updates {
                        guard let device = update.snapshot.devices[path] else {
                            throw GATTError(
                                .objectGone, operation: operation, message: "BlueZ no longer knows the device")
                        }
                        if device.connected && device.servicesResolved { return true }
                        if !device.connected && !waitForConnection {
                            throw GATTError(.notConnected, operation: operation, message: "not connected")
                        }
                    }
                    return false
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return false
                }
                let first = try await group.next() ?? false
                group.cancelAll()
                return first
            }
        } catch {
            throw GATTError(error, operation: operation)
        }
        guard !resolved else { return }
        let connected = await model.current().devices[path]?.connected ?? false
        throw GATTError(
            connected ? .servicesNotResolved : .notConnected, operation: operation,
            message: connected ? "services not resolved after \(timeout)" : "not connected after \(timeout)")
    }

    /// The GATT objects BlueZ exports for the device now.
    package func database() async -> GATTDatabase {
        await GATTDatabase.load(from: model, device: device)
    }

    /// Asks BlueZ itself (not the model, which may lag) whether the device is connected.
    /// - Throws: ``GATTError`` `.objectGone` when BlueZ no longer knows the device.
    package func isDeviceConnected() async throws(GATTError) -> Bool {
        let reply = try await invoke(
            "check the connection of \(device)", path: device, interface: .properties, member: "Get",
            [.string(BlueZ.deviceInterface.rawValue), .string("Connected")], retrying: false)
        return reply.body.first?.boolValue ?? false
    }

    // MARK: Reads and writes

    /// Reads a characteristic's value from `offset` (`ReadValue`). bluetoothd performs the ATT long read
    /// itself, so this returns the whole value from `offset`.
    package func read(_ characteristic: GATTCharacteristic, offset: UInt16 = 0) async throws(GATTError) -> [UInt8] {
        try await readValue(
            at: characteristic.path, interface: BlueZ.gattCharacteristicInterface, offset: offset,
            what: "read \(characteristic.uuid.shortDescription) at \(characteristic.path)")
    }

    /// Reads a value that may come back one ATT chunk (`MTU - 1` bytes) at a time, as some stacks do: while a
    /// read returns exactly a full chunk, the next one continues at the offset reached. Stops at a short or empty
    /// chunk, at `InvalidOffset` (the end), or at `maximumLength` bytes (512, the longest ATT value).
    package func readLong(_ characteristic: GATTCharacteristic, maximumLength: Int = 512) async throws(GATTError)
        -> [UInt8]
    {
        let chunk = Int(characteristic.mtu ?? 23) - 1
        var value = try await read(characteristic)
        guard chunk > 0, value.count == chunk else { return Array(value.prefix(maximumLength)) }
        while value.count < maximumLength, let offset = UInt16(exactly: value.count) {
            let next: [UInt8]
            do {
                next = try await read(characteristic, offset: offset)
            } catch let error where error.kind == .invalidOffset {
                break
            }
            value += next
            if next.count < chunk { break }
        }
        return Array(value.prefix(maximumLength))
    }

    /// Reads a descriptor's value from `offset` (`ReadValue`), such as a Characteristic User Description.
    package func read(_ descriptor: GATTDescriptor, offset: UInt16 = 0) async throws(GATTError) -> [UInt8] {
        try await readValue(
            at: descriptor.path, interface: BlueZ.gattDescriptorInterface, offset: offset,
            what: "read descriptor \(descriptor.uuid.shortDescription) at \(descriptor.path)")
    }

    /// Writes a characteristic (`WriteValue`): `.request` waits for the peer's acknowledgement, `.command`
    /// (write without response) does not, `.reliable` uses a prepared write.
    package func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType = .request, offset: UInt16 = 0
    ) async throws(GATTError) {
        var options = [DBusDictionaryEntry(key: .string("type"), value: .variant(.string(type.rawValue)))]
        if offset != 0 { options.append(DBusDictionaryEntry(key: .string("offset"), value: .variant(.uint16(offset)))) }
        _ = try await invoke(
            "write \(characteristic.uuid.shortDescription) at \(characteristic.path)", path: characteristic.path,
            interface: BlueZ.gattCharacteristicInterface, member: "WriteValue",
            [.bytes(value), .dictionary(key: .string, value: .variant, options)])
    }

    /// Writes a descriptor (`WriteValue`).
    package func write(_ value: [UInt8], to descriptor: GATTDescriptor, offset: UInt16 = 0) async throws(GATTError) {
        var options: [DBusDictionaryEntry] = []
        if offset != 0 { options.append(DBusDictionaryEntry(key: .string("offset"), value: .variant(.uint16(offset)))) }
        _ = try await invoke(
            "write descriptor \(descriptor.uuid.shortDescription) at \(descriptor.path)", path: descriptor.path,
            interface: BlueZ.gattDescriptorInterface, member: "WriteValue",
            [.bytes(value), .dictionary(key: .string, value: .variant, options)])
    }

    // MARK: Notifications

    /// Starts notifications (or indications) of a characteristic and returns its values as they arrive.
    ///
    /// Subscribes to the characteristic's `PropertiesChanged` before `StartNotify`, so no value is missed. The
    /// sequence ends when the characteristic goes away (the device disconnected) or when ``GATTNotifications/stop()``
    /// is called; `StopNotify` is sent when iteration ends, the sequence is released, or ``GATTNotifications/stop()``.
    /// BlueZ also emits `Value` changes after a `ReadValue` of the same characteristic: they arrive here too.
    /// BlueZ keeps one notification session per client connection and characteristic (a second `StartNotify`
    /// joins it, and the first `StopNotify` ends it for both): start one sequence per characteristic and share it.
    /// - Throws: ``GATTError`` when the subscription fails or BlueZ refuses `StartNotify` (`.notSupported` when
    ///   the characteristic has neither `notify` nor `indicate`).
    package func notifications(from characteristic: GATTCharacteristic) async throws(GATTError) -> GATTNotifications {
        let operation = "start notifications of \(characteristic.uuid.shortDescription) at \(characteristic.path)"
        let changes: SignalStream
        let removals: SignalStream
        do {
            changes = try await connection.subscribe(
                to: MatchRule(
                    sender: BlueZ.service, path: characteristic.path, interface: .properties,
                    member: "PropertiesChanged",
                    arg0: BlueZ.gattCharacteristicInterface.rawValue))
            removals = try await connection.subscribe(
                to: MatchRule(
                    sender: BlueZ.service, interface: .objectManager, member: "InterfacesRemoved"))
        } catch {
            throw GATTError(error, operation: operation)
        }
        _ = try await invoke(
            operation, path: characteristic.path, interface: BlueZ.gattCharacteristicInterface, member: "StartNotify")
        let connection = self.connection
        let path = characteristic.path
        return GATTNotifications(characteristic: characteristic, changes: changes, removals: removals) {
            _ = try? await connection.call(
                destination: BlueZ.service, path: path, interface: BlueZ.gattCharacteristicInterface,
                member: "StopNotify", timeout: .seconds(5))
        }
    }

    // MARK: Calls

    private func readValue(at path: ObjectPath, interface: InterfaceName, offset: UInt16, what: String)
        async throws(GATTError) -> [UInt8]
    {
        var options: [DBusDictionaryEntry] = []
        if offset != 0 { options.append(DBusDictionaryEntry(key: .string("offset"), value: .variant(.uint16(offset)))) }
        let reply = try await invoke(
            what, path: path, interface: interface, member: "ReadValue",
            [.dictionary(key: .string, value: .variant, options)])
        guard reply.body.count == 1, let bytes = reply.body[0].byteArrayValue else {
            throw GATTError(.failed, operation: what, message: "BlueZ answered '\(reply.signature.rawValue)', not 'ay'")
        }
        return bytes
    }

    /// One call to BlueZ, retried on `InProgress` per the policy.
    private func invoke(
        _ operation: String, path: ObjectPath, interface: InterfaceName, member: MemberName,
        _ arguments: [DBusValue] = [],
        retrying: Bool = true
    ) async throws(GATTError) -> Message {
        var attempt = 0
        while true {
            do {
                return try await connection.call(
                    destination: BlueZ.service, path: path, interface: interface, member: member,
                    arguments, timeout: callTimeout)
            } catch {
                let mapped = GATTError(error, operation: operation)
                guard retrying, mapped.kind == .inProgress, attempt < retryPolicy.retries else { throw mapped }
                do {
                    try await Task.sleep(for: retryPolicy.backoff(beforeRetry: attempt))
                } catch {
                    throw GATTError(.canceled, operation: operation, message: "canceled")
                }
                attempt += 1
            }
        }
    }
}
