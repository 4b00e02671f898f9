import KBlinkAPI
import KeyboardLinkPresence

extension HardwareKeyboard {
    /// The keyboard as the contract carries it in `HardwareKeyboards`.
    package var entry: HardwareKeyboardEntry {
        HardwareKeyboardEntry(source: source.wire, id: id, name: name)
    }
}

extension HardwareKeyboardReason {
    /// The keyboard and its reason as the contract carries them in `HardwareKeyboardReasons`.
    package var entry: HardwareKeyboardReasonEntry {
        HardwareKeyboardReasonEntry(source: source.wire, id: id, name: name, counts: counts, reason: reason)
    }
}

extension HardwareKeyboard.Source {
    /// The source as the contract names it.
    package var wire: HardwareKeyboardSource {
        switch self {
        case .bluetooth: .bluetooth
        case .evdev: .evdev
        }
    }
}
