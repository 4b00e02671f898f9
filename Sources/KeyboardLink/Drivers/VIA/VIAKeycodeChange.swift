/// One keycode to write: where, and the new 16-bit QMK keycode.
public struct VIAKeycodeChange: Hashable, Sendable {
    /// Where.
    public var position: VIAKeyPosition
    /// The new keycode.
    public var keycode: UInt16

    /// Creates a change.
    public init(position: VIAKeyPosition, keycode: UInt16) {
        self.position = position
        self.keycode = keycode
    }
}
