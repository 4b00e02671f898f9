/// How the GATT client retries an operation BlueZ answered with `InProgress` (another read or write of the
/// same attribute is still on the air): a few tries with a doubling, bounded backoff. Other errors are not
/// retried: they do not go away by waiting.
public struct GATTRetryPolicy: Sendable, Equatable {
    /// Retries after the first try.
    public var retries: Int
    /// The wait before the first retry; each next wait doubles.
    public var initialBackoff: Duration
    /// The longest single wait.
    public var maximumBackoff: Duration

    /// Creates a policy.
    public init(
        retries: Int = 4, initialBackoff: Duration = .milliseconds(25), maximumBackoff: Duration = .milliseconds(200)
    ) {
        self.retries = max(0, retries)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// The default: 4 retries after 25, 50, 100 and 200 ms (under 0.4 s in all).
    public static let standard = GATTRetryPolicy()

    /// No retries.
    public static let none = GATTRetryPolicy(retries: 0)

    /// The wait before retry number `attempt` (0-based).
    public func backoff(beforeRetry attempt: Int) -> Duration {
        var wait = initialBackoff
        for _ in 0..<min(max(0, attempt), 16) {
            wait = wait * 2
            if wait >= maximumBackoff { return maximumBackoff }
        }
        return min(wait, maximumBackoff)
    }
}
