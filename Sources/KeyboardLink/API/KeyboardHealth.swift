import KeyboardLinkDBus

/// Whether a keyboard can type: the `Health` property of `org.kblink1.Keyboard` and the `health` field of
/// ``KeyboardSummary`` (docs/health.md). On the wire the raw value (`s`).
public enum KeyboardHealth: String, Sendable, Equatable, CaseIterable, DBusWireMapped {
    /// Connected, and its input device (an evdev keyboard node whose `Uniq` is its address) exists; also a
    /// connected keyboard while kblinkd cannot watch input devices (BlueZ's word is taken then).
    case working
    /// Connected, its input device not there yet, within the deadline.
    case waiting
    /// Connected without an input device past the deadline: kblinkd is trying a step of the healing ladder.
    case healing
    /// Still no input device after the healing budget: kblinkd stopped trying; `HealthDetail` says why and what
    /// to do. A failed keyboard does not count as an attached hardware keyboard.
    case failed
    /// Not connected, paired and trusted: it connects again by itself at its next key press (or after a resume or
    /// the radio coming back).
    case asleep
    /// Not connected and not expected back by itself: disconnected by the user, not paired or not trusted.
    case disconnected

    /// Decodes the wire word (`s`).
    /// - Throws: ``DBusError`` (`InvalidArgs`) naming the words that exist.
    public init(wireForm text: String) throws {
        guard let health = KeyboardHealth(rawValue: text) else {
            throw DBusError(
                .invalidArgs,
                "unknown health \"\(text.prefix(40))\"; expected one of "
                    + Self.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = health
    }

    /// The wire word.
    public var wireForm: String { rawValue }

    /// Whether the keyboard can type now, or may within the deadline (what presence counts).
    public var countsAsAttached: Bool {
        switch self {
        case .working, .waiting, .healing: true
        case .failed, .asleep, .disconnected: false
        }
    }
}
