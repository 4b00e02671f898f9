import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// The simulated keyboards' input devices (``SimulatedInputDevices``), `Device1.ConnectProfile` as bluetoothd
/// answers it (src/device.c, `connect_profiles`), and the adapter's `Powered` taking its connections down and
/// bringing them back.
extension SimulatedBlueZ {
    /// The healing calls a device received: `ConnectProfile`, `Disconnect` and `Connect`.
    package struct HealingCalls: Sendable, Equatable {
        package var connectProfile = 0
        package var disconnect = 0
        package var connect = 0

        package init(connectProfile: Int = 0, disconnect: Int = 0, connect: Int = 0) {
            self.connectProfile = connectProfile
            self.disconnect = disconnect
            self.connect = connect
        }
    }

    /// Makes the simulator play the kernel's input devices too: each connected keyboard gets its node as its
    /// ``SimulatedDevice/inputDevice`` says. Keyboards connected already get theirs now.
    package func setInputDevices(_ devices: SimulatedInputDevices?) {
        inputDevices = devices
        for entry in entries.values where entry.device.connected { linkCameUp(entry.device.address) }
    }

    /// The calls `address` received.
    package func healingCalls(of address: BluetoothAddress) -> HealingCalls {
        healingCalls[address] ?? HealingCalls()
    }

    /// Whether `address` has an input device now.
    package func hasInputDevice(_ address: BluetoothAddress) -> Bool {
        inputDevices?.hasNode(address) ?? false
    }

    /// Changes when a device's input device appears (on its next connection or `ConnectProfile`).
    package func setInputDeviceBehavior(_ address: BluetoothAddress, _ behavior: SimulatedDevice.InputDeviceBehavior)
        async throws
    {
        try await update(address) { $0.inputDevice = behavior }
    }

    func countHealingCall(_ address: BluetoothAddress, _ call: WritableKeyPath<HealingCalls, Int>) {
        healingCalls[address, default: HealingCalls()][keyPath: call] += 1
    }

    func markDisconnectedByCall(_ address: BluetoothAddress) {
        guard entries[address]?.device.connected == true else { return }
        disconnectedByCall.insert(address)
    }

    /// A keyboard's link came up (after `ServicesResolved`): its input device appears, or later, or not.
    func linkCameUp(_ address: BluetoothAddress) {
        connectionSerials[address, default: 0] += 1
        let afterReconnect = disconnectedByCall.remove(address) != nil
        guard let inputDevices, let entry = entries[address], Self.isKeyboard(entry.device) else { return }
        let device = entry.device
        switch device.inputDevice {
        case .atConnection:
            inputDevices.add(
                address, name: device.name, lowEnergy: Self.isLowEnergy(device), keyboard: device.inputDeviceIsKeyboard)
        case .late(let delay):
            let serial = connectionSerials[address]
            Task { [weak self] in
                try? await Task.sleep(for: delay)
                await self?.addLateInputDevice(address, serial: serial)
            }
        case .afterReconnect where afterReconnect:
            inputDevices.add(
                address, name: device.name, lowEnergy: Self.isLowEnergy(device), keyboard: device.inputDeviceIsKeyboard)
        case .afterConnectProfile, .afterReconnect, .never:
            break
        }
    }

    private func addLateInputDevice(_ address: BluetoothAddress, serial: Int?) {
        guard let entry = entries[address], entry.device.connected, connectionSerials[address] == serial else {
            return
        }
        inputDevices?.add(
            address, name: entry.device.name, lowEnergy: Self.isLowEnergy(entry.device),
            keyboard: entry.device.inputDeviceIsKeyboard)
    }

    /// `Device1.ConnectProfile(s uuid)` as bluetoothd answers it: `NotReady` when the adapter is off,
    /// `InProgress` while pairing; `Failed` "br-connection-sdp-search" for an LE-only device, whatever the UUID
    /// (bluetoothd, in src/device.c `connect_profile`, always takes the BR/EDR bearer, where such a device's
    /// services were never resolved, and the SDP search it starts fails: docs/real-bluez.md, finding 12);
    /// `InvalidArguments` for a malformed UUID or a profile the device does not offer; success, changing nothing,
    /// when the profile is connected already (its input device exists: bluetoothd's `btd_service_connect` returns
    /// `-EALREADY`, which `connect_profiles` answers with an empty reply, not with `AlreadyConnected`); otherwise
    /// the device is connected first if it is not, and the profile connected (for a keyboard that makes its input
    /// device only then, the device appears).
    func connectProfile(_ address: BluetoothAddress, uuid: String) async throws {
        countHealingCall(address, \.connectProfile)
        guard let entry = entries[address] else { throw DBusError(BlueZ.Error.doesNotExist, "Does Not Exist") }
        guard adapters.first(where: { $0.path == entry.adapter })?.powered == true else {
            throw DBusError(BlueZ.Error.notReady, "Resource Not Ready")
        }
        guard pairings[address] == nil else { throw DBusError(BlueZ.Error.inProgress, "In Progress") }
        guard entry.device.hasBREDR else { throw DBusError(BlueZ.Error.failed, "br-connection-sdp-search") }
        guard let wanted = BluetoothUUID(validating: uuid),
            entry.device.uuids.contains(where: { BluetoothUUID(validating: $0) == wanted })
        else {
            throw DBusError(BlueZ.Error.invalidArguments, "Invalid arguments in method call")
        }
        if !entry.device.connected {
            guard entry.device.paired else {
                throw DBusError(BlueZ.Error.failed, "Connection refused: the device is not in range")
            }
            try await setConnected(address, true)
        }
        guard let inputDevices, Self.isKeyboard(entry.device) else { return }
        if inputDevices.hasNode(address) { return }
        if entry.device.inputDevice == .afterConnectProfile {
            inputDevices.add(
                address, name: entry.device.name, lowEnergy: Self.isLowEnergy(entry.device),
                keyboard: entry.device.inputDeviceIsKeyboard)
        }
    }

    /// An adapter was powered off (its connections drop, as the kernel's do) or on (the keyboards that were
    /// connected come back, as a trusted keyboard reconnects when it next advertises).
    func adapterPowerChanged(_ path: ObjectPath, _ powered: Bool) async {
        if !powered {
            let connected = entries.values.filter { $0.adapter == path && $0.device.connected }.map(\.device.address)
            connectedBeforePowerOff[path] = connected
            for address in connected { try? await setConnected(address, false) }
            return
        }
        let back = connectedBeforePowerOff.removeValue(forKey: path) ?? []
        guard !back.isEmpty else { return }
        Task { [weak self] in
            try? await Task.sleep(for: Self.autoConnectDelay)
            for address in back { await self?.reconnectAfterPowerOn(address) }
        }
    }

    private func reconnectAfterPowerOn(_ address: BluetoothAddress) async {
        guard let entry = entries[address], !entry.device.connected, entry.device.paired,
            adapters.first(where: { $0.path == entry.adapter })?.powered == true
        else { return }
        try? await setConnected(address, true)
    }

    static func isKeyboard(_ device: SimulatedDevice) -> Bool {
        device.icon == "input-keyboard"
            && (device.uuids.contains(SimulatedDevice.hogp)
                || device.uuids.contains(
                    SimulatedDevice.hid))
    }

    static func isLowEnergy(_ device: SimulatedDevice) -> Bool { device.uuids.contains(SimulatedDevice.hogp) }
}
