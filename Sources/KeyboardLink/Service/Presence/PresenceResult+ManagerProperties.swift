import KBlinkAPI
import KeyboardLinkPresence

extension PresenceResult {
    /// The Manager's `HardwareKeyboardAttached`, `HardwareKeyboards` and `HardwareKeyboardReasons` for this
    /// result, set together so that no reader sees the flag and the lists disagree.
    package var managerProperties: [KBlinkPropertyAssignment] {
        [
            KBlinkContract.Manager.hardwareKeyboardAttachedProperty.assigned(hardwareKeyboardAttached),
            KBlinkContract.Manager.hardwareKeyboardsProperty.assigned(keyboards.map(\.entry)),
            KBlinkContract.Manager.hardwareKeyboardReasonsProperty.assigned(reasons.map(\.entry)),
        ]
    }
}
