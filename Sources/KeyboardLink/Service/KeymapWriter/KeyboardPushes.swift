import KeyboardLinkBlueZ
import KeyboardLinkDrivers

/// The pushes running, one per keyboard at a time.
public actor KeyboardPushes {
    private var running: Set<BluetoothAddress> = []
    /// How VIA keyboards are reached (hidraw; a socketpair in tests).
    public private(set) var viaLinks = VIADriverLinks.hidraw()

    /// Creates an empty registry.
    public init() {}

    /// Claims a keyboard for a push; false when one is already running.
    func begin(_ address: BluetoothAddress) -> Bool {
        running.insert(address).inserted
    }

    /// Releases a keyboard.
    func end(_ address: BluetoothAddress) {
        running.remove(address)
    }

    /// Replaces how VIA keyboards are reached (tests serve a simulated keyboard on a socketpair).
    public func setVIALinks(_ links: VIADriverLinks) {
        viaLinks = links
    }

    /// Whether a push of the keyboard is running.
    public func isPushing(_ address: BluetoothAddress) -> Bool {
        running.contains(address)
    }
}
