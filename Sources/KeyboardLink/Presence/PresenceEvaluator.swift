import KeyboardLinkBlueZ

/// Combines the keyboards the kernel sees with the Bluetooth keyboards BlueZ reports connected, under a policy.
///
/// - An evdev device counts when it passes systemd's keyboard rule (``InputDevice/isKeyboard``), is not virtual
///   (``InputDevice/isVirtual``) and its bus counts under the policy (``PresencePolicy/counts(bus:)``).
/// - Every connected Bluetooth keyboard counts under every policy.
/// - A Bluetooth keyboard seen both ways (an evdev device whose `U: Uniq=` is the keyboard's address) is listed
///   once, as `bluetooth`, with BlueZ's name.
/// - An evdev device of a Bluetooth device that BlueZ reports disconnected does not count: BlueZ 5.77 and later can
///   keep the uhid input device of an LE keyboard (its `hog` plugin) across disconnections, so the node outlives
///   the link, and BlueZ's `Connected` is what says whether the keyboard is there.
public struct PresenceEvaluator: Hashable, Sendable {
    /// The policy in force.
    public var policy: PresencePolicy

    /// An evaluator for `policy`.
    public init(policy: PresencePolicy = .default) {
        self.policy = policy
    }

    /// The keyboards in use.
    /// - Parameters:
    ///   - evdevDevices: devices from `/proc/bus/input/devices` (all of them or only the keyboards: the filter is
    ///     applied here).
    ///   - bluetoothKeyboards: connected Bluetooth keyboards from BlueZ.
    ///   - disconnectedBluetoothAddresses: the devices BlueZ knows and reports disconnected; evdev devices whose
    ///     `U: Uniq=` is one of them are left out.
    public func evaluate(
        evdevDevices: [InputDevice], bluetoothKeyboards: [ConnectedBluetoothKeyboard],
        disconnectedBluetoothAddresses: Set<BluetoothAddress> = []
    ) -> PresenceResult {
        var seenAddresses = Set<BluetoothAddress>()
        var bluetooth: [ConnectedBluetoothKeyboard] = []
        for keyboard in bluetoothKeyboards.sorted(by: { $0.address < $1.address })
        where seenAddresses.insert(keyboard.address).inserted {
            bluetooth.append(keyboard)
        }
        let evdev = evdevDevices.filter { device in
            guard device.isKeyboard, !device.isVirtual, policy.counts(bus: device.bus) else { return false }
            if let address = device.bluetoothAddress,
                seenAddresses.contains(address) || disconnectedBluetoothAddresses.contains(address)
            {
                return false
            }
            return true
        }.sorted { lhs, rhs in
            switch (lhs.eventNumber, rhs.eventNumber) {
            case (let left?, let right?): left < right
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.sysfsPath < rhs.sysfsPath
            }
        }
        let keyboards =
            bluetooth.map { HardwareKeyboard(source: .bluetooth, id: $0.address.description, name: $0.name) }
            + evdev.map { HardwareKeyboard(source: .evdev, id: $0.devicePath ?? $0.sysfsPath, name: $0.name) }
        return PresenceResult(keyboards: keyboards)
    }
}
