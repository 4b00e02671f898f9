import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// A battery kblinkd supplies to BlueZ as a battery provider (`org.bluez.BatteryProvider1`), for a keyboard whose
/// battery BlueZ does not report itself.
struct ProvidedBattery: Sendable, Equatable {
    var address: BluetoothAddress
    /// BlueZ's device object (the provider object's `Device`).
    var device: ObjectPath
    /// The adapter the device is on.
    var adapter: ObjectPath
    /// `Percentage`: the lowest part's level.
    var percentage: UInt8
    /// `Source`: names the part, `kblink: right half (left 81 %, right 64 %)`.
    var source: String

    /// Which batteries kblinkd supplies: a keyboard connected with its services resolved, whose battery kblinkd
    /// knows (by part) and BlueZ cannot report, because its services have no Battery Service (BlueZ's battery
    /// plugin reads the first Battery Service of a device; kblinkd never supplies a battery for a device that has
    /// one, so it never takes the place of BlueZ's own). bluetoothd accepts one `Battery1` per device, so the
    /// lowest part is supplied, and `Source` names every part.
    static func wanted(
        keyboards: some Sequence<KeyboardState>, devices: [ObjectPath: BlueZDevice]
    ) -> [ProvidedBattery] {
        let batteryService = BluetoothUUID.batteryService.description.lowercased()
        return keyboards.compactMap { state -> ProvidedBattery? in
            guard let device = devices[state.devicePath], let adapter = device.adapter, device.connected,
                device.servicesResolved, !device.uuids.contains(where: { $0.lowercased() == batteryService }),
                let lowest = state.battery.filter({ $0.level <= 100 }).min(by: { $0.level < $1.level })
            else { return nil }
            return ProvidedBattery(
                address: state.address, device: device.path, adapter: adapter, percentage: lowest.level,
                source: source(state.battery, lowest: lowest.part))
        }.sorted { $0.address < $1.address }
    }

    /// `kblink: main`, or `kblink: right half (left 81 %, right 64 %)`.
    static func source(_ parts: [(part: String, level: UInt8)], lowest: String) -> String {
        guard parts.count > 1 else { return "kblink: \(lowest)" }
        let named = lowest == "left" || lowest == "right" ? "\(lowest) half" : lowest
        return "kblink: \(named) (" + parts.map { "\($0.part) \($0.level) %" }.joined(separator: ", ") + ")"
    }
}
