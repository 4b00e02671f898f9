/// How long the connection's loop waits after `poll` fails for a reason other than a signal (`EINTR` is retried
/// by `InterruptedCall`): `ENOMEM` may pass, `EINVAL` (more descriptors than `RLIMIT_NOFILE`) lasts until a watch
/// goes away. Waiting, doubled at each failure in a row up to ``longest``, keeps the loop from spinning a core on a
/// failure that lasts, while it still runs its jobs between tries.
struct PollFailureBackoff {
    /// The first wait.
    static let shortest: Duration = .milliseconds(1)
    /// The longest wait: what a job queued meanwhile may wait at most.
    static let longest: Duration = .milliseconds(100)

    /// Failures in a row.
    private(set) var failures = 0

    /// Counts a failure; returns how long to wait before polling again.
    mutating func failed() -> Duration {
        failures += 1
        let doublings = min(failures - 1, 16)
        return min(Self.shortest * (1 << doublings), Self.longest)
    }

    /// `poll` answered: the next failure waits ``shortest`` again.
    mutating func succeeded() {
        failures = 0
    }
}
