/// The command ids of VIA's raw HID protocol (byte 0 of a report), from QMK's `via.h`.
public enum VIACommandID: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case getProtocolVersion = 0x01
    case getKeyboardValue = 0x02
    case setKeyboardValue = 0x03
    case dynamicKeymapGetKeycode = 0x04
    case dynamicKeymapSetKeycode = 0x05
    case dynamicKeymapReset = 0x06
    case macroGetCount = 0x0C
    case macroGetBufferSize = 0x0D
    case macroGetBuffer = 0x0E
    case macroSetBuffer = 0x0F
    case macroReset = 0x10
    case getLayerCount = 0x11
    case dynamicKeymapGetBuffer = 0x12
    case dynamicKeymapSetBuffer = 0x13
    /// Byte 0 of the reply to a command the keyboard does not handle.
    case unhandled = 0xFF

    public var description: String {
        switch self {
        case .getProtocolVersion: "get_protocol_version"
        case .getKeyboardValue: "get_keyboard_value"
        case .setKeyboardValue: "set_keyboard_value"
        case .dynamicKeymapGetKeycode: "dynamic_keymap_get_keycode"
        case .dynamicKeymapSetKeycode: "dynamic_keymap_set_keycode"
        case .dynamicKeymapReset: "dynamic_keymap_reset"
        case .macroGetCount: "dynamic_keymap_macro_get_count"
        case .macroGetBufferSize: "dynamic_keymap_macro_get_buffer_size"
        case .macroGetBuffer: "dynamic_keymap_macro_get_buffer"
        case .macroSetBuffer: "dynamic_keymap_macro_set_buffer"
        case .macroReset: "dynamic_keymap_macro_reset"
        case .getLayerCount: "dynamic_keymap_get_layer_count"
        case .dynamicKeymapGetBuffer: "dynamic_keymap_get_buffer"
        case .dynamicKeymapSetBuffer: "dynamic_keymap_set_buffer"
        case .unhandled: "unhandled"
        }
    }
}
