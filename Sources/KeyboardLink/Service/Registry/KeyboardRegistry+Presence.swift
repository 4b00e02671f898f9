import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkPresence

/// `HardwareKeyboardAttached` and `HardwareKeyboards`: the connected Bluetooth keyboards and the evdev keyboards,
/// judged by the presence policy.
extension KeyboardRegistry {
    /// The hardware keyboards that count under the policy, and whether any does.
    func presence() -> (attached: Bool, keyboards: [HardwareKeyboard]) {
        let bluetooth = keyboards.values.filter(\.connected).map {
            ConnectedBluetoothKeyboard(address: $0.address, name: $0.alias)
        }
        // BlueZ 5.77 and later can keep an LE keyboard's uhid input device across disconnections: its node follows BlueZ.
        let disconnected = Set(
            Self.oneDevicePerAddress(snapshot.devices.values).filter { !$0.connected }.compactMap {
                BluetoothAddress(validating: $0.address)
            })
        let result = PresenceEvaluator(policy: presencePolicy).evaluate(
            evdevDevices: evdevDevices, bluetoothKeyboards: bluetooth, disconnectedBluetoothAddresses: disconnected)
        return (result.hardwareKeyboardAttached, result.keyboards)
    }

    /// Feeds the input devices the evdev monitor found.
    func updateEvdevDevices(_ devices: [InputDevice]) async {
        evdevDevices = devices
        await publishPresence()
    }

    /// Applies new settings (SIGHUP).
    func reconfigure(presencePolicy: PresencePolicy, discoveryTimeout: Duration) async {
        self.presencePolicy = presencePolicy
        self.discoveryTimeout = discoveryTimeout
        await publishPresence()
    }

    func publishPresence() async {
        let (attached, list) = presence()
        // Both at once, so that no reader sees the flag and the list disagree.
        await setManagerProperties([
            (KBlinkContract.Manager.hardwareKeyboardAttachedProperty, .boolean(attached)),
            (KBlinkContract.Manager.hardwareKeyboardsProperty, list.dbusValue),
        ])
    }
}
