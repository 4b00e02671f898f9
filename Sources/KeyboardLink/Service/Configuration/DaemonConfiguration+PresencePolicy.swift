extension DaemonConfiguration {
    /// `[Presence] Policy`: which sources make `HardwareKeyboardAttached` true.
    public enum PresencePolicy: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Keyboards plugged in or connected from outside: Bluetooth and USB, not a laptop's built-in keyboard
        /// (i8042 and other platform buses), which is always there and says nothing about the user's choice.
        case external
        /// Every hardware keyboard, built-in ones included.
        case any
        /// Connected Bluetooth keyboards only.
        case bluetooth

        public var description: String { rawValue }
    }
}
