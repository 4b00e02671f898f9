import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDrivers
import KeyboardLinkFirmware

/// What the firmware refresher and the drivers learn about a keyboard, merged into its `Firmware`, `Battery` and
/// `Driver` properties.
extension KeyboardRegistry {
    /// The firmware information held for a keyboard.
    func firmwareInfo(for address: BluetoothAddress) -> FirmwareInfo? {
        firmwareInfos[address]
    }

    /// Fills a keyboard's `Firmware` and `Battery` from its information.
    ///
    /// The batteries are the Battery Level characteristics' parts as last read (and notified). BlueZ's
    /// `Battery1` is live and reports the first Battery Service: it gives the `main` level of a keyboard that has
    /// one battery (or whose battery was only known through `Battery1`), and is left aside for split keyboards,
    /// whose parts it cannot tell apart.
    func applyFirmware(to state: inout KeyboardState, device: BlueZDevice) {
        let driverKeys = driverFirmware[state.address] ?? [:]
        guard let info = firmwareInfos[state.address] else {
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

    /// Keeps a keyboard's freshly read information and publishes what changed.
    func setFirmwareInfo(_ info: FirmwareInfo, for address: BluetoothAddress) async {
        firmwareInfos[address] = info
        await publishFirmware(address)
    }

    /// A Battery Level notification: updates the part's level (in memory: the cache keeps what refreshes read).
    func batteryNotified(_ address: BluetoothAddress, part: String, level: BatteryLevel) async {
        guard var info = firmwareInfos[address],
            let index = info.batteries.firstIndex(where: { $0.part == part }), info.batteries[index].level != level
        else { return }
        info.batteries[index].level = level
        firmwareInfos[address] = info
        await publishFirmware(address)
    }

    /// Recomputes a keyboard's `Firmware` and `Battery` and emits `PropertiesChanged` for what changed.
    private func publishFirmware(_ address: BluetoothAddress) async {
        guard var state = keyboards[address], let device = snapshot.devices[state.devicePath] else { return }
        applyFirmware(to: &state, device: device)
        guard state != keyboards[address] else { return }
        keyboards[address] = state
        await updateProperties(of: state)
    }

    /// Adds what a driver read (VIA versions) to a keyboard's `Firmware` property.
    func setDriverFirmware(_ properties: [String: String], of address: BluetoothAddress) async {
        guard !properties.isEmpty, driverFirmware[address] != properties else { return }
        driverFirmware[address] = properties
        guard var current = keyboards[address] else { return }
        current.firmware.merge(properties) { _, read in read }
        keyboards[address] = current
        await updateProperties(of: current)
    }

    /// Sets a keyboard's `Driver` property (and `StudioLock`: empty unless it speaks ZMK Studio).
    func setDriver(_ driver: String, of address: BluetoothAddress) async {
        guard var current = keyboards[address] else { return }
        let isStudio = driver == DriverKind.zmkStudio.rawValue
        let lock = isStudio ? (current.studioLock == .notStudio ? .unknown : current.studioLock) : StudioLock.notStudio
        guard current.driver != driver || current.studioLock != lock else { return }
        current.driver = driver
        current.studioLock = lock
        keyboards[address] = current
        await updateProperties(of: current)
    }

    /// Sets a ZMK Studio keyboard's `StudioLock` from what its Studio link reported; ignored for a keyboard that
    /// is not connected (a report that arrives after the link went down) or does not speak ZMK Studio.
    func setStudioLock(_ lock: StudioLock, of address: BluetoothAddress) async {
        guard var current = keyboards[address], current.connected, current.studioLock != lock,
            current.driver == DriverKind.zmkStudio.rawValue
        else { return }
        current.studioLock = lock
        keyboards[address] = current
        await updateProperties(of: current)
    }
}
