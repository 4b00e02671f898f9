/// Why a high-level VIA operation was refused before or after talking to the keyboard.
package enum VIAClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A keymap shape VIA cannot carry, or two keymaps of different shapes.
    case invalidKeymapGeometry(String)
    /// A keycode position outside the keymap.
    case positionOutsideKeymap(VIAKeyPosition)
    /// The macros need `needed` bytes (including the final NUL) but the keyboard's buffer holds `available`.
    case macroBufferTooSmall(needed: Int, available: Int)
    /// The keyboard reports no macro buffer.
    case noMacroBuffer

    package var description: String {
        switch self {
        case .invalidKeymapGeometry(let detail):
            return "invalid VIA keymap geometry: \(detail); check the keyboard's layout definition"
        case .positionOutsideKeymap(let position):
            return "\(position) is outside the keyboard's keymap; check the layout definition"
        case let .macroBufferTooSmall(needed, available):
            return "the macros need \(needed) bytes but the keyboard's macro buffer holds \(available); "
                + "shorten or remove macros, nothing was written"
        case .noMacroBuffer:
            return "the keyboard has no VIA macro buffer; its firmware was built without dynamic macros"
        }
    }
}
