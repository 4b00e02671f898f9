import Foundation
import Testing

/// How long a test waits for state before it gives up: generous, because the suite runs hundreds of tests at once
/// on a machine that may be busy with other work too (`scripts/test --stress` beside another suite saw a hundred
/// keymap edits, each saved with its fsyncs, take over a minute). Only a failing test waits this long.
package let waitDeadline: Duration = .seconds(120)

/// The one way a test waits: until `condition` holds, checking every 10 ms, up to `timeout`; returns whether it
/// held.
///
/// Wait on state (a property published, an interface exported, a line printed), never on time, and never to prove
/// that something does not happen. An error thrown by `condition` means "not yet" (an object not exported yet, a
/// daemon not on the bus yet); the last check runs at the deadline, and its error, if any, is the one thrown, so a
/// test that gives up says what it last saw. Use `eventually(_:satisfies:)` when the value itself is worth
/// reporting.
package func eventually(
    timeout: Duration = waitDeadline, _ condition: @Sendable () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        do {
            if try await condition() { return true }
        } catch {
            // Not yet: checked again, and at the deadline the error is thrown.
        }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// Waits until `observe()` gives a value that satisfies `condition` (checking every 10 ms, up to `timeout`) and
/// returns it; at the deadline records an issue that names what was expected and the last value or error seen, and
/// returns nil.
@discardableResult
package func eventually<Value: Sendable>(
    _ what: String = "", timeout: Duration = waitDeadline, sourceLocation: SourceLocation = #_sourceLocation,
    _ observe: @Sendable () async throws -> Value, satisfies condition: @Sendable (Value) -> Bool
) async -> Value? {
    let clock = ContinuousClock()
    let start = clock.now
    let outcome = await poll(observe, until: condition, givingUpWhen: { _ in clock.now - start >= timeout })
    if outcome.value == nil {
        Issue.record(
            "waited \(timeout) for \(what.isEmpty ? "the condition" : what); last saw \(outcome.lastSeen)",
            sourceLocation: sourceLocation)
    }
    return outcome.value
}

/// Waits until `observe()` gives a value that satisfies `condition`, for as long as the value keeps changing: the
/// deadline is `stall` after the last change, not after the start, so a slow machine that makes progress is waited
/// for and only progress that stops fails. At the deadline records an issue that names what was expected, the last
/// value or error seen and how long it had not changed, and returns nil.
@discardableResult
package func eventually<Value: Sendable & Equatable>(
    _ what: String, stallingFor stall: Duration = waitDeadline, sourceLocation: SourceLocation = #_sourceLocation,
    _ observe: @Sendable () async throws -> Value, satisfies condition: @Sendable (Value) -> Bool
) async -> Value? {
    let clock = ContinuousClock()
    var lastChange = clock.now
    var last: Value?
    let outcome = await poll(observe, until: condition) { seen in
        if let seen, seen != last {
            last = seen
            lastChange = clock.now
        }
        return clock.now - lastChange >= stall
    }
    if outcome.value == nil {
        Issue.record(
            "waited for \(what); nothing changed for \(stall), last saw \(outcome.lastSeen)",
            sourceLocation: sourceLocation)
    }
    return outcome.value
}

/// The loop of both value waits: calls `observe()` every 10 ms until its value satisfies `condition`, or until
/// `expired` (given the value that did not satisfy it, nil after an error) says the wait is over. Answers the value
/// that satisfied the condition (nil when none did) and the last value or error seen, in words.
private func poll<Value: Sendable>(
    _ observe: @Sendable () async throws -> Value, until condition: @Sendable (Value) -> Bool,
    givingUpWhen expired: (Value?) -> Bool
) async -> (value: Value?, lastSeen: String) {
    var lastSeen = "nothing yet"
    while true {
        var seen: Value?
        do {
            let value = try await observe()
            if condition(value) { return (value, lastSeen) }
            seen = value
            lastSeen = String(describing: value)
        } catch {
            lastSeen = "error: \(error)"
        }
        if expired(seen) { return (nil, lastSeen) }
        try? await Task.sleep(for: .milliseconds(10))
    }
}

/// Takes the first element of an async sequence, or nil after `timeout`.
package func first<S: AsyncSequence & Sendable>(
    of sequence: S, timeout: Duration = waitDeadline,
    where predicate: @escaping @Sendable (S.Element) -> Bool = { _ in true }
) async -> S.Element? where S.Element: Sendable {
    await withTaskGroup(of: S.Element?.self) { group in
        group.addTask {
            do {
                for try await element in sequence where predicate(element) { return element }
            } catch {}
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let result = await group.next() ?? nil
        group.cancelAll()
        return result
    }
}

/// Runs `body`, which blocks (a read with a deadline, a wait for a child to exit), on a thread of its own, and
/// waits for it without holding one of Swift's cooperative threads.
///
/// The cooperative pool has one thread per core: on a two-core machine two tests blocked in a system call stop
/// every other test's `await` (a 20 ms sleep woke a minute late), and a test that waits on state then misses its
/// deadline. Call every blocking wait of a test through this.
package func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
