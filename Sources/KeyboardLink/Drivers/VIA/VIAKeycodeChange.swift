/// One keycode to write: where, and the new 16-bit QMK keycode.
package struct VIAKeycodeChange: Hashable, Sendable {
    /// Where.
    package var position: VIAKeyPosition
    /// The new keycode.
    package var keycode: UInt16

    /// Creates a change.
    package init(position: VIAKeyPosition, keycode: UInt16) {
        self.position = position
        self.keycode = keycode
    }
}
