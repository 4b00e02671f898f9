/// One step of a VIA macro, as QMK's `send_string` plays it from the macro buffer.
public enum VIAMacroAction: Hashable, Sendable {
    /// Types ASCII text: printable characters plus backspace, tab, newline and escape.
    case text(String)
    /// `0x01 0x01 kc`: press and release a basic keycode (0x01...0xFF).
    case tap(UInt8)
    /// `0x01 0x02 kc`: press a basic keycode.
    case press(UInt8)
    /// `0x01 0x03 kc`: release a basic keycode.
    case release(UInt8)
    /// `0x01 0x04 "<ms>|"`: wait.
    case delay(milliseconds: Int)

    /// Whether `byte` may appear in `.text` (not NUL, not the 0x01 action prefix).
    public static func isTextByte(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte) || byte == 0x08 || byte == 0x09 || byte == 0x0A || byte == 0x1B
    }
}
