/// The value a VIA reply carries, once `VIACommand.decodeReply` has checked that it answers the request.
package enum VIAReply: Hashable, Sendable {
    /// `get_protocol_version`: 0x000B for current QMK.
    case protocolVersion(UInt16)
    /// `get_keyboard_value`: the value, u32 big-endian from byte 2.
    case keyboardValue(VIAKeyboardValueID, UInt32)
    /// `dynamic_keymap_get_keycode`.
    case keycode(UInt16)
    /// `dynamic_keymap_macro_get_count`.
    case macroCount(UInt8)
    /// `dynamic_keymap_macro_get_buffer_size`, in bytes.
    case macroBufferSize(UInt16)
    /// `dynamic_keymap_get_layer_count`.
    case layerCount(UInt8)
    /// `..._get_buffer`: the requested bytes.
    case buffer([UInt8])
    /// A write or reset, echoed back.
    case acknowledged
}
