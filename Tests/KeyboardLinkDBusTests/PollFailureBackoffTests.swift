import Testing

@testable import KeyboardLinkDBus

/// The connection's loop does not spin when `poll` keeps failing: each failure in a row waits twice as long as the
/// one before, up to a bound, and an answer starts again from the shortest wait.
@Suite struct PollFailureBackoffTests {
    @Test func failuresInARowWaitLongerUpToTheBound() {
        var backoff = PollFailureBackoff()
        let waits = (0..<12).map { _ in backoff.failed() }
        #expect(waits.prefix(4) == [.milliseconds(1), .milliseconds(2), .milliseconds(4), .milliseconds(8)])
        #expect(waits.last == PollFailureBackoff.longest)
        #expect(zip(waits, waits.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(waits.allSatisfy { $0 <= PollFailureBackoff.longest })
    }

    @Test func anAnswerStartsAgainFromTheShortestWait() {
        var backoff = PollFailureBackoff()
        for _ in 0..<40 { _ = backoff.failed() }
        backoff.succeeded()
        #expect(backoff.failed() == PollFailureBackoff.shortest)
    }
}
