/// The command ids of VIA's raw HID protocol (byte 0 of a report), from QMK's `via.h`.
package enum VIACommandID: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// `id_get_protocol_version`.
    case getProtocolVersion = 0x01
    /// `id_get_keyboard_value`.
    case getKeyboardValue = 0x02
    /// `id_set_keyboard_value`.
    case setKeyboardValue = 0x03
    /// `id_dynamic_keymap_get_keycode`.
    case dynamicKeymapGetKeycode = 0x04
    /// `id_dynamic_keymap_set_keycode`.
    case dynamicKeymapSetKeycode = 0x05
    /// `id_dynamic_keymap_reset`.
    case dynamicKeymapReset = 0x06
    /// `id_dynamic_keymap_macro_get_count`.
    case macroGetCount = 0x0C
    /// `id_dynamic_keymap_macro_get_buffer_size`.
    case macroGetBufferSize = 0x0D
    /// `id_dynamic_keymap_macro_get_buffer`.
    case macroGetBuffer = 0x0E
    /// `id_dynamic_keymap_macro_set_buffer`.
    case macroSetBuffer = 0x0F
    /// `id_dynamic_keymap_macro_reset`.
    case macroReset = 0x10
    /// `id_dynamic_keymap_get_layer_count`.
    case getLayerCount = 0x11
    /// `id_dynamic_keymap_get_buffer`.
    case dynamicKeymapGetBuffer = 0x12
    /// `id_dynamic_keymap_set_buffer`.
    case dynamicKeymapSetBuffer = 0x13
    /// Byte 0 of the reply to a command the keyboard does not handle.
    case unhandled = 0xFF

    package var description: String {
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
