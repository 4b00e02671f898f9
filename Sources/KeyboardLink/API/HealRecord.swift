import KeyboardLinkDBus

/// One step of kblinkd's healing ladder that ran on a keyboard: an entry of the `Heals` property of
/// `org.kblink1.Keyboard` (newest last). On the wire `(xss)`: when it ran (Unix time, seconds), the step
/// (`connect-profile`, `reconnect`, `power-cycle-adapter`), and how it ended (`healed`, `no input device`, or the
/// error BlueZ answered).
public struct HealRecord: Sendable, Equatable, DBusWireMapped {
    /// When the step ran, in seconds since 1970 (UTC).
    public var time: Int64
    /// The step.
    public var step: String
    /// How it ended.
    public var outcome: String

    /// A record as given.
    public init(time: Int64, step: String, outcome: String) {
        self.time = time
        self.step = step
        self.outcome = outcome
    }

    /// `(xss)`: time, step, outcome.
    public typealias WireForm = DBusStruct<Int64, String, String>

    /// A record from `(xss)`.
    public init(wireForm: WireForm) {
        (time, step, outcome) = wireForm.fields
    }

    /// The record as `(xss)`.
    public var wireForm: WireForm { WireForm(time, step, outcome) }
}
