import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkPresence

/// `HardwareKeyboardAttached`, `HardwareKeyboards` and `HardwareKeyboardReasons`: the registry feeds its
/// ``PresenceTracker`` the connected Bluetooth keyboards with their health, the devices BlueZ reports disconnected
/// and the evdev keyboards, publishes what the tracker answers and wakes it when its grace period ends.
extension KeyboardRegistry {
    /// The hardware keyboards that count, and whether any does, as published (held during the grace period).
    func presence() -> (attached: Bool, keyboards: [HardwareKeyboard]) {
        (presenceTracker.published.hardwareKeyboardAttached, presenceTracker.published.keyboards)
    }

    /// The published presence with its reasons.
    func presenceWithReasons() -> PresenceResult {
        presenceTracker.published
    }

    /// Feeds the input devices the evdev monitor found.
    func updateEvdevDevices(_ devices: [InputDevice]) async {
        presenceTracker.updateEvdevDevices(devices)
        await refreshHealth()
        await publishPresence()
    }

    /// Applies new settings (SIGHUP).
    func reconfigure(
        presencePolicy: PresencePolicy, presence settings: PresenceSettings, health: HealthSettings,
        discoveryTimeout: Duration
    ) async {
        reconfigureHealth(health)
        presenceTracker.reconfigure(policy: presencePolicy, settings: settings)
        self.discoveryTimeout = discoveryTimeout
        await publishPresence()
    }

    /// Feeds the tracker the keyboards as they are now, publishes its answer when it changed, and sets the timer
    /// for the end of the grace period it names.
    func publishPresence() async {
        presenceTracker.updateBluetooth(connected: connectedKeyboardsForPresence(), disconnected: disconnectedDevices())
        let publication = presenceTracker.publish(now: .now)
        graceTimer?.cancel()
        graceTimer = nil
        if let wakeAt = publication.wakeAt {
            graceTimer = Task { [weak self] in
                guard (try? await Task.sleep(until: wakeAt, clock: .continuous)) != nil else { return }
                await self?.publishPresence()
            }
        }
        guard let published = publication.changed else { return }
        await setManagerProperties(published.managerProperties)
    }

    /// The exported keyboards BlueZ reports connected; a keyboard that cannot type (health failed) is marked so.
    private func connectedKeyboardsForPresence() -> [PresenceTracker.BluetoothKeyboard] {
        keyboards.values.filter(\.connected).map {
            PresenceTracker.BluetoothKeyboard(
                address: $0.address, name: $0.alias, canType: $0.health.countsAsAttached)
        }
    }

    /// Every device BlueZ knows and reports disconnected (one per address), keyboard or not: BlueZ 5.77 and later
    /// can keep an LE keyboard's uhid input device across disconnections, so its node follows BlueZ.
    private func disconnectedDevices() -> Set<BluetoothAddress> {
        Set(
            Self.oneDevicePerAddress(snapshot.devices.values).filter { !$0.connected }.compactMap {
                BluetoothAddress(validating: $0.address)
            })
    }
}
