/// The D-Bus objects of every keyboard: `org.kblink1.Keyboard` and `org.kblink1.Keymap`, whose member declarations
/// and handlers are built once and shared by all keyboards' objects (one copy for a thousand keyboards, not a
/// thousand).
struct KeyboardObjects: Sendable {
    /// `org.kblink1.Keyboard`.
    let keyboard: KeyboardObject
    /// `org.kblink1.Keymap`.
    let keymap: KeymapObject
}
