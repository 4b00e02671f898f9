/// The hardware keyboards in use, as the `HardwareKeyboards` and `HardwareKeyboardAttached` properties show them,
/// and the reasons behind them (`HardwareKeyboardReasons`).
package struct PresenceResult: Hashable, Sendable {
    /// Bluetooth keyboards first (by address), then evdev keyboards (by node number).
    package var keyboards: [HardwareKeyboard]
    /// Every keyboard looked at, counted or not, in the same order (counted ones first within each source).
    package var reasons: [HardwareKeyboardReason]

    /// Creates a result.
    package init(keyboards: [HardwareKeyboard], reasons: [HardwareKeyboardReason] = []) {
        self.keyboards = keyboards
        self.reasons = reasons
    }

    /// Whether at least one hardware keyboard counts.
    package var hardwareKeyboardAttached: Bool { !keyboards.isEmpty }
}
