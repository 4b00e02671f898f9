/// How the GATT client retries an operation BlueZ answered with `InProgress` (another read or write of the
/// same attribute is still on the air): a few tries with a doubling, bounded backoff. Other errors are not
/// retried: they do not go away by waiting.
package struct GATTRetryPolicy: Sendable, Equatable {
    /// Retries after the first try.
    package var retries: Int
    /// The wait before the first retry; each next wait doubles.
    package var initialBackoff: Duration
    /// The longest single wait.
    package var maximumBackoff: Duration

    /// Creates a policy.
    package init(
        retries: Int = 4, initialBackoff: Duration = .milliseconds(25), maximumBackoff: Duration = .milliseconds(200)
    ) {
        self.retries = max(0, retries)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// The default: 4 retries after 25, 50, 100 and 200 ms (under 0.4 s in all).
    package static let standard = GATTRetryPolicy()

    /// No retries.
    package static let none = GATTRetryPolicy(retries: 0)

    /// The wait before retry number `attempt` (0-based).
    package func backoff(beforeRetry attempt: Int) -> Duration {
        var wait = initialBackoff
        for _ in 0..<min(max(0, attempt), 16) {
            wait = wait * 2
            if wait >= maximumBackoff { return maximumBackoff }
        }
        return min(wait, maximumBackoff)
    }
}
