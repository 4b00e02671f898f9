import KeyboardLinkBlueZ

/// Combines the keyboards the kernel sees with the Bluetooth keyboards BlueZ reports connected, under a policy.
///
/// - An evdev device counts when it passes systemd's keyboard rule (``InputDevice/isKeyboard``), udev did not mark
///   it `KBLINK_IGNORE=1` (``InputDevice/ignoredByUdev``), and either it is virtual (``InputDevice/isVirtual``: a
///   remapper such as keyd or kanata, ydotool, any uinput device) and ``countsVirtualDevices`` is set, or it is not
///   virtual and its bus counts under the policy (``PresencePolicy/counts(bus:)``).
/// - Every connected Bluetooth keyboard counts under every policy.
/// - A Bluetooth keyboard seen both ways (an evdev device whose `U: Uniq=` is the keyboard's address) is listed
///   once, as `bluetooth`, with BlueZ's name.
/// - An evdev device of a Bluetooth device that BlueZ reports disconnected does not count: BlueZ 5.77 and later can
///   keep the uhid input device of an LE keyboard (its `hog` plugin) across disconnections, so the node outlives
///   the link, and BlueZ's `Connected` is what says whether the keyboard is there.
///
/// Every keyboard looked at gets a ``HardwareKeyboardReason`` saying why it counts or not.
package struct PresenceEvaluator: Hashable, Sendable {
    /// The policy in force.
    package var policy: PresencePolicy
    /// Whether virtual keyboards count (`[Presence] CountVirtualDevices`); false by default.
    package var countsVirtualDevices: Bool

    /// An evaluator for `policy`.
    package init(policy: PresencePolicy = .default, countsVirtualDevices: Bool = false) {
        self.policy = policy
        self.countsVirtualDevices = countsVirtualDevices
    }

    /// The keyboards in use.
    /// - Parameters:
    ///   - evdevDevices: devices from `/proc/bus/input/devices` (all of them or only the keyboards: the filter is
    ///     applied here).
    ///   - bluetoothKeyboards: connected Bluetooth keyboards from BlueZ.
    ///   - disconnectedBluetoothAddresses: the devices BlueZ knows and reports disconnected; evdev devices whose
    ///     `U: Uniq=` is one of them are left out.
    package func evaluate(
        evdevDevices: [InputDevice], bluetoothKeyboards: [ConnectedBluetoothKeyboard],
        disconnectedBluetoothAddresses: Set<BluetoothAddress> = []
    ) -> PresenceResult {
        var seenAddresses = Set<BluetoothAddress>()
        var bluetooth: [ConnectedBluetoothKeyboard] = []
        for keyboard in bluetoothKeyboards.sorted(by: { $0.address < $1.address })
        where seenAddresses.insert(keyboard.address).inserted {
            bluetooth.append(keyboard)
        }
        var counted: [(device: InputDevice, reason: String)] = []
        var ignored: [(device: InputDevice, reason: String)] = []
        for device in evdevDevices where device.isKeyboard {
            if let address = device.bluetoothAddress, seenAddresses.contains(address) { continue }
            switch judge(device, disconnectedBluetoothAddresses: disconnectedBluetoothAddresses) {
            case .counts(let reason): counted.append((device, reason))
            case .ignored(let reason): ignored.append((device, reason))
            }
        }
        let byNode = { (lhs: (device: InputDevice, reason: String), rhs: (device: InputDevice, reason: String)) in
            Self.nodeOrder(lhs.device, rhs.device)
        }
        counted.sort(by: byNode)
        ignored.sort(by: byNode)
        let bluetoothKeyboards = bluetooth.map {
            HardwareKeyboard(source: .bluetooth, id: $0.address.description, name: $0.name)
        }
        let evdevKeyboards = counted.map { Self.entry($0.device) }
        var reasons = bluetoothKeyboards.map {
            HardwareKeyboardReason(counting: $0, reason: "Bluetooth keyboard that BlueZ reports connected")
        }
        reasons += zip(evdevKeyboards, counted).map { HardwareKeyboardReason(counting: $0, reason: $1.reason) }
        reasons += ignored.map {
            let keyboard = Self.entry($0.device)
            return HardwareKeyboardReason(
                source: .evdev, id: keyboard.id, name: keyboard.name, counts: false, reason: $0.reason)
        }
        return PresenceResult(keyboards: bluetoothKeyboards + evdevKeyboards, reasons: reasons)
    }

    private enum Judgement {
        case counts(String)
        case ignored(String)
    }

    private func judge(_ device: InputDevice, disconnectedBluetoothAddresses: Set<BluetoothAddress>) -> Judgement {
        if device.ignoredByUdev { return .ignored("udev gives it KBLINK_IGNORE=1") }
        if device.isVirtual {
            return countsVirtualDevices
                ? .counts("virtual keyboard, counted because [Presence] CountVirtualDevices is true")
                : .ignored(
                    "virtual keyboard (a remapper such as keyd or kanata, ydotool or another uinput device); "
                        + "[Presence] CountVirtualDevices=true counts it")
        }
        if let address = device.bluetoothAddress, disconnectedBluetoothAddresses.contains(address) {
            return .ignored("input node of a Bluetooth keyboard that BlueZ reports disconnected")
        }
        guard policy.counts(bus: device.bus) else {
            return .ignored("\(device.bus) keyboard; policy \(policy) does not count it")
        }
        return .counts("\(device.bus) keyboard; policy \(policy) counts it")
    }

    private static func entry(_ device: InputDevice) -> HardwareKeyboard {
        HardwareKeyboard(source: .evdev, id: device.devicePath ?? device.sysfsPath, name: device.name)
    }

    private static func nodeOrder(_ lhs: InputDevice, _ rhs: InputDevice) -> Bool {
        switch (lhs.eventNumber, rhs.eventNumber) {
        case (let left?, let right?): left < right
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): lhs.sysfsPath < rhs.sysfsPath
        }
    }
}
