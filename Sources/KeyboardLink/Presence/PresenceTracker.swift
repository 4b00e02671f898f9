import KeyboardLinkBlueZ

/// Whether a hardware keyboard is in use, kept as its inputs change: the Bluetooth keyboards BlueZ reports
/// connected and whether each can type, the devices BlueZ reports disconnected, the input devices the kernel lists,
/// the policy and the settings. It answers what the Manager's `HardwareKeyboardAttached`, `HardwareKeyboards` and
/// `HardwareKeyboardReasons` show: the ``PresenceEvaluator``'s result, with "attached" held for the grace period
/// after the last keyboard left (``PresenceGrace``).
///
/// A value with no bus and no timer of its own: kblinkd feeds it what changed, publishes what ``publish(now:)``
/// answers and, while the grace period holds, calls it again at the ``Publication/wakeAt`` it names.
package struct PresenceTracker: Sendable {
    /// A Bluetooth keyboard BlueZ reports connected, as presence needs it.
    package struct BluetoothKeyboard: Hashable, Sendable {
        /// The device address.
        package var address: BluetoothAddress
        /// Its `Alias` (or `Name`).
        package var name: String
        /// Whether it types now or may within its health deadline (health `working`, `waiting` or `healing`).
        /// One that cannot (health `failed`: kblinkd stopped healing it) does not count and is not listed, so
        /// that the on-screen keyboard comes back.
        package var canType: Bool

        /// Creates an entry.
        package init(address: BluetoothAddress, name: String, canType: Bool = true) {
            self.address = address
            self.name = name
            self.canType = canType
        }
    }

    /// What to publish after an input changed or the grace period's timer fired.
    package struct Publication: Hashable, Sendable {
        /// The presence to publish; nil when it is what was published last.
        package var changed: PresenceResult?
        /// While the grace period holds "attached": when to call ``PresenceTracker/publish(now:)`` again.
        package var wakeAt: ContinuousClock.Instant?

        /// Creates a publication.
        package init(changed: PresenceResult?, wakeAt: ContinuousClock.Instant?) {
            self.changed = changed
            self.wakeAt = wakeAt
        }
    }

    /// Which keyboards count (`HardwareKeyboardPolicy`).
    package private(set) var policy: PresencePolicy
    /// The grace period and whether virtual keyboards count.
    package private(set) var settings: PresenceSettings
    /// The Bluetooth keyboards BlueZ reports connected, as fed last.
    package private(set) var bluetoothKeyboards: [BluetoothKeyboard] = []
    /// The devices BlueZ knows and reports disconnected: their input nodes do not count (BlueZ 5.77 and later can
    /// keep an LE keyboard's uhid input device across disconnections).
    package private(set) var disconnectedBluetoothAddresses: Set<BluetoothAddress> = []
    /// The input devices the evdev monitor reported last; empty until it reported.
    package private(set) var evdevDevices: [InputDevice] = []
    /// Whether the evdev monitor reported the input devices at least once: until then nobody knows whether a
    /// connected keyboard has its input device.
    package private(set) var inputDevicesReported = false
    /// What was published last (held during the grace period).
    package private(set) var published = PresenceResult(keyboards: [])
    /// Holds "attached" for the grace period after the last keyboard left.
    private var grace: PresenceGrace

    /// A tracker that has seen no keyboard yet.
    package init(policy: PresencePolicy = .default, settings: PresenceSettings = PresenceSettings()) {
        self.policy = policy
        self.settings = settings
        grace = PresenceGrace(period: settings.gracePeriod)
    }

    /// Takes what BlueZ reports now.
    /// - Parameters:
    ///   - connected: the Bluetooth keyboards BlueZ reports connected, with whether each can type.
    ///   - disconnected: the addresses of every device BlueZ knows and reports disconnected.
    package mutating func updateBluetooth(
        connected: [BluetoothKeyboard], disconnected: Set<BluetoothAddress>
    ) {
        bluetoothKeyboards = connected
        disconnectedBluetoothAddresses = disconnected
    }

    /// Takes the input devices the evdev monitor found (all of them: the keyboard rule is applied when judging).
    package mutating func updateEvdevDevices(_ devices: [InputDevice]) {
        evdevDevices = devices
        inputDevicesReported = true
    }

    /// Takes new settings (kblinkd's SIGHUP); the next ``publish(now:)`` judges with them.
    package mutating func reconfigure(policy: PresencePolicy, settings: PresenceSettings) {
        self.policy = policy
        self.settings = settings
        grace.period = settings.gracePeriod
    }

    /// Whether the kernel lists an input device (keyboard or not) whose `Uniq` is `address`.
    package func hasInputDevice(for address: BluetoothAddress) -> Bool {
        evdevDevices.contains { $0.bluetoothAddress == address }
    }

    /// The keyboards that count right now, without the grace period.
    package var evaluation: PresenceResult {
        PresenceEvaluator(policy: policy, countsVirtualDevices: settings.countsVirtualDevices).evaluate(
            evdevDevices: evdevDevices,
            bluetoothKeyboards: bluetoothKeyboards.filter(\.canType).map {
                ConnectedBluetoothKeyboard(address: $0.address, name: $0.name)
            },
            disconnectedBluetoothAddresses: disconnectedBluetoothAddresses)
    }

    /// Whether "attached" is being held for the grace period now.
    package var isHolding: Bool { grace.isHolding }

    /// Judges the inputs as they are at `now` and records the answer as published.
    /// - Returns: the presence to publish when it differs from the last one, and while the grace period holds,
    ///   when to call again.
    package mutating func publish(now: ContinuousClock.Instant) -> Publication {
        let (result, wakeAt) = grace.update(evaluation, now: now)
        guard result != published else { return Publication(changed: nil, wakeAt: wakeAt) }
        published = result
        return Publication(changed: result, wakeAt: wakeAt)
    }
}
