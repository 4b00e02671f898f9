/// The hardware keyboards in use, as the `HardwareKeyboards` and `HardwareKeyboardAttached` properties show them.
public struct PresenceResult: Hashable, Sendable {
    /// Bluetooth keyboards first (by address), then evdev keyboards (by node number).
    public var keyboards: [HardwareKeyboard]

    /// Creates a result.
    public init(keyboards: [HardwareKeyboard]) {
        self.keyboards = keyboards
    }

    /// Whether at least one hardware keyboard counts.
    public var hardwareKeyboardAttached: Bool { !keyboards.isEmpty }
}
