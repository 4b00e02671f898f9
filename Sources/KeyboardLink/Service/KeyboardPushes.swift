/// The pushes running, one per keyboard at a time.
public actor KeyboardPushes {
    private var running: Set<BluetoothAddress> = []

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

    /// Whether a push of the keyboard is running.
    public func isPushing(_ address: BluetoothAddress) -> Bool {
        running.contains(address)
    }
}
