import KeyboardLinkTestSupport
import Synchronization
import Testing

/// The suite's waits (`Waiting.swift`): they return the value that satisfied the condition, and a wait that gives up
/// says what it last saw.
@Suite("Waiting on state")
struct WaitingTests {
    /// A counter that goes up by one each time it is read.
    final class Counter: Sendable {
        let reads = Mutex(0)
        func next() -> Int {
            reads.withLock {
                $0 += 1; return $0
            }
        }
    }

    @Test("a wait returns the first value that satisfies the condition; errors mean not yet")
    func returnsSatisfyingValue() async {
        let counter = Counter()
        let value = await eventually("the fifth read") { () throws -> Int in
            let read = counter.next()
            if read < 3 { throw CancellationError() }
            return read
        } satisfies: {
            $0 >= 5
        }
        #expect(value == 5)
    }

    @Test("a wait that gives up records what it last saw")
    func reportsLastValue() async {
        await withKnownIssue {
            let value = await eventually("a negative number", timeout: .milliseconds(50)) {
                7
            } satisfies: {
                $0 < 0
            }
            #expect(value == nil)
        } matching: { issue in
            Self.text(of: issue).contains("a negative number") && Self.text(of: issue).contains("last saw 7")
        }
    }

    @Test("a stalling wait returns the value that satisfies it, and gives up once the value stops changing")
    func stallingWait() async {
        let counter = Counter()
        let changing = await eventually("the 30th read", stallingFor: waitDeadline) {
            counter.next()
        } satisfies: {
            $0 >= 30
        }
        #expect(changing == 30)

        await withKnownIssue {
            let stuck = await eventually("a value above 7", stallingFor: .milliseconds(50)) {
                7
            } satisfies: {
                $0 > 7
            }
            #expect(stuck == nil)
        } matching: { issue in
            Self.text(of: issue).contains("nothing changed for") && Self.text(of: issue).contains("last saw 7")
        }
    }

    /// What a recorded issue says.
    static func text(of issue: Issue) -> String {
        issue.comments.map(\.rawValue).joined(separator: " ")
    }
}
