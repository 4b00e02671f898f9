import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkPresence

/// `HardwareKeyboardAttached`, `HardwareKeyboards` and `HardwareKeyboardReasons`: the connected Bluetooth keyboards
/// and the evdev keyboards, judged by the presence policy, with "attached" held for the grace period after the last
/// keyboard left.
extension KeyboardRegistry {
    /// The hardware keyboards that count, and whether any does, as published (held during the grace period).
    func presence() -> (attached: Bool, keyboards: [HardwareKeyboard]) {
        (publishedPresence.hardwareKeyboardAttached, publishedPresence.keyboards)
    }

    /// The published presence with its reasons.
    func presenceWithReasons() -> PresenceResult {
        publishedPresence
    }

    /// The keyboards that count right now, without the grace period.
    func evaluatePresence() -> PresenceResult {
        let bluetooth = keyboards.values.filter(\.connected).map {
            ConnectedBluetoothKeyboard(address: $0.address, name: $0.alias)
        }
        // BlueZ 5.77 and later can keep an LE keyboard's uhid input device across disconnections: its node follows BlueZ.
        let disconnected = Set(
            Self.oneDevicePerAddress(snapshot.devices.values).filter { !$0.connected }.compactMap {
                BluetoothAddress(validating: $0.address)
            })
        return PresenceEvaluator(policy: presencePolicy, countsVirtualDevices: presenceSettings.countsVirtualDevices)
            .evaluate(
                evdevDevices: evdevDevices, bluetoothKeyboards: bluetooth,
                disconnectedBluetoothAddresses: disconnected)
    }

    /// Feeds the input devices the evdev monitor found.
    func updateEvdevDevices(_ devices: [InputDevice]) async {
        evdevDevices = devices
        await publishPresence()
    }

    /// Applies new settings (SIGHUP).
    func reconfigure(presencePolicy: PresencePolicy, presence settings: PresenceSettings, discoveryTimeout: Duration)
        async
    {
        self.presencePolicy = presencePolicy
        presenceSettings = settings
        presenceGrace.period = settings.gracePeriod
        self.discoveryTimeout = discoveryTimeout
        await publishPresence()
    }

    func publishPresence() async {
        let (published, wakeAt) = presenceGrace.update(evaluatePresence(), now: .now)
        graceTimer?.cancel()
        graceTimer = nil
        if let wakeAt {
            graceTimer = Task { [weak self] in
                guard (try? await Task.sleep(until: wakeAt, clock: .continuous)) != nil else { return }
                await self?.publishPresence()
            }
        }
        guard published != publishedPresence else { return }
        publishedPresence = published
        // All at once, so that no reader sees the flag and the lists disagree.
        await setManagerProperties([
            KBlinkContract.Manager.hardwareKeyboardAttachedProperty.assigned(published.hardwareKeyboardAttached),
            KBlinkContract.Manager.hardwareKeyboardsProperty.assigned(published.keyboards.map(\.entry)),
            KBlinkContract.Manager.hardwareKeyboardReasonsProperty.assigned(published.reasons.map(\.entry)),
        ])
    }
}
