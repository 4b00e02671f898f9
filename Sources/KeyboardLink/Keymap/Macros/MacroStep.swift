/// One step of a macro.
package enum MacroStep: Hashable, Sendable {
    /// Press and release a key, with its modifiers held around it (`ctrl+c`, `enter`).
    case tap(KeyPress)
    /// Press a key and keep it down (`press shift`).
    case press(HIDUsage)
    /// Release a key pressed earlier (`release shift`).
    case release(HIDUsage)
    /// Wait, in milliseconds (`delay 50`).
    case delay(milliseconds: Int)
    /// Type printable ASCII text (`text 'hello'`).
    case text(String)
}
