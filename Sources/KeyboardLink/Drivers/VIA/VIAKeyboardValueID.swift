/// The value ids of `get_keyboard_value` / `set_keyboard_value` (byte 1), from QMK's `via.h`.
package enum VIAKeyboardValueID: UInt8, Sendable, CaseIterable {
    /// Milliseconds since the keyboard started, u32 big-endian.
    case uptime = 0x01
    /// The layout options bit field, u32 big-endian (settable).
    case layoutOptions = 0x02
    /// Which switches are pressed (only when the matrix fits in 28 bytes).
    case switchMatrixState = 0x03
    /// The firmware version the keyboard's maker compiled in, u32 big-endian.
    case firmwareVersion = 0x04
    /// Makes the keyboard flash to show which one it is (settable).
    case deviceIndication = 0x05
}
