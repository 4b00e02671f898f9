import KBlinkAPI
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
        let result = PresenceEvaluator(policy: presencePolicy).evaluate(
            evdevDevices: evdevDevices, bluetoothKeyboards: bluetooth)
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
