import KeyboardLinkDBus

/// Whether a ZMK Studio keyboard accepts keymap reads and writes: the `StudioLock` property of
/// `org.kblink1.Keyboard` (docs/dbus-api.md). On the wire the raw value (`s`); empty for a keyboard that does not
/// speak ZMK Studio.
public enum StudioLock: String, Sendable, Equatable, CaseIterable, DBusWireMapped {
    /// Not a ZMK Studio keyboard (its `Driver` is not `zmk-studio`).
    case notStudio = ""
    /// A ZMK Studio keyboard whose lock state kblinkd does not know: not connected, or not asked yet.
    case unknown
    /// Locked: it answers keymap calls with `UNLOCK_REQUIRED` until its `&studio_unlock` key is pressed.
    case locked
    /// Unlocked: keymap reads and writes go through.
    case unlocked

    /// Decodes the wire word (`s`).
    /// - Throws: ``DBusError`` (`InvalidArgs`) naming the words that exist.
    public init(wireForm text: String) throws {
        guard let lock = StudioLock(rawValue: text) else {
            throw DBusError(
                .invalidArgs,
                "unknown ZMK Studio lock state \"\(text.prefix(40))\"; expected one of \"\", "
                    + Self.allCases.dropFirst().map(\.rawValue).joined(separator: ", "))
        }
        self = lock
    }

    /// The wire word.
    public var wireForm: String { rawValue }
}
