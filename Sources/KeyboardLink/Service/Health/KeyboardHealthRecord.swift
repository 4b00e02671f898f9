import KBlinkAPI

/// One keyboard's healing ladder with what the registry keeps beside it: its timer and what it recorded.
struct KeyboardHealthRecord: Sendable {
    var ladder: HealthLadder
    /// Wakes the ladder at its `wakeAt`.
    var timer: Task<Void, Never>?
    /// The step being run, so that only one runs at a time.
    var stepTask: Task<Void, Never>?
    /// Counts the steps started: a step's end is taken only from the task of the last one.
    var stepSerial: UInt64 = 0
    /// The last steps that ended (`Heals`), newest last.
    var heals: [HealRecord] = []
    /// The last reconnect times in milliseconds (`ReconnectTimes`), newest last.
    var reconnectTimes: [UInt32] = []

    /// How many heals and reconnect times are kept.
    static let healsKept = 10
    static let reconnectTimesKept = 20
}
