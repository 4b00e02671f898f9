import Testing

@testable import KeyboardLinkBlueZ

@Suite struct GATTRetryPolicyTests {
    @Test func standardBackoffDoublesUpToTheMaximum() {
        let policy = GATTRetryPolicy.standard
        #expect(policy.retries == 4)
        #expect(
            (0..<6).map { policy.backoff(beforeRetry: $0) } == [
                .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(200),
                .milliseconds(200),
            ])
    }

    @Test func negativeRetriesMeanNone() {
        #expect(GATTRetryPolicy(retries: -3).retries == 0)
        #expect(GATTRetryPolicy.none.retries == 0)
    }

    @Test func hugeAttemptNumbersStayBounded() {
        let policy = GATTRetryPolicy(retries: 100, initialBackoff: .milliseconds(1), maximumBackoff: .seconds(1))
        #expect(policy.backoff(beforeRetry: 1_000_000) == .seconds(1))
    }
}
