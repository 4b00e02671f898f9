import Synchronization

/// Bounds how many private `dbus-daemon`s (with the daemons a test runs on them) are alive at once.
///
/// Swift Testing starts every test of the process at once, and a test mostly waits, so without a bound several
/// hundred private buses run side by side (410 were counted). Each `dbus-daemon` holds an inotify instance, and a
/// user has 128 of them by default (`fs.inotify.max_user_instances`, 1,024 once `scripts/test` raised it): the tests
/// that watch input devices then fail with "cannot start inotify: Too many open files". A test takes a slot before
/// it starts its bus and gives it back when the bus stops (``DaemonSlot`` going away); a test that waits for a slot
/// has not started its clock.
///
/// Should slots stop changing hands (tests that each hold a bus and wait for a second one, or a bus that never
/// stops), one waiter goes ahead without a slot each ``longestWait``, never all of them at once: with a deadline
/// per waiter, every waiter of a loaded machine reached its deadline together and started its bus at the same
/// moment, and the inotify instances ran out.
package final class DaemonSlots: Sendable {
    /// The slots the whole test process shares: 24 buses use at most a few inotify instances each.
    package static let shared = DaemonSlots(count: 24)

    /// How long no slot may change hands before one waiter goes ahead without one.
    package static let longestWait: Duration = .seconds(120)

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var free: Int
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
        /// When a slot last changed hands (taken, given back, or a waiter let go ahead without one).
        var lastProgress = ContinuousClock.now
        /// When waiters went ahead without a slot, in order.
        var wentAhead: [ContinuousClock.Instant] = []
    }

    private let state: Mutex<State>

    /// Slots for `count` buses at once.
    package init(count: Int) {
        state = Mutex(State(free: count))
    }

    /// The number of slots free now.
    package var free: Int { state.withLock { $0.free } }

    /// The number of tests waiting for a slot now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// When waiters went ahead without a slot, in order.
    package var wentAhead: [ContinuousClock.Instant] { state.withLock { $0.wentAhead } }

    /// Waits for a free slot; the slot is free again when the returned value goes away. A waiter goes ahead without
    /// one when no slot changed hands for `longestWait` and it waited the longest.
    package func acquire(waitingAtMost longestWait: Duration = DaemonSlots.longestWait) async -> DaemonSlot {
        let counted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let waiter: UInt64? = state.withLock { state in
                if state.free > 0 {
                    state.free -= 1
                    state.lastProgress = .now
                    return nil
                }
                let id = state.nextWaiter
                state.nextWaiter += 1
                state.waiters.append(Waiter(id: id, continuation: continuation))
                return id
            }
            guard let waiter else {
                continuation.resume(returning: true)
                return
            }
            Task {
                var pause = longestWait
                while true {
                    try? await Task.sleep(for: pause)
                    guard let next = self.letOneGoAheadIfStalled(still: waiter, longestWait: longestWait) else {
                        return
                    }
                    pause = next
                }
            }
        }
        return DaemonSlot(slots: counted ? self : nil)
    }

    /// When no slot changed hands for `longestWait`, the longest waiter goes ahead without one. Answers how long
    /// to sleep before asking again, or nil once `waiter` no longer waits.
    private func letOneGoAheadIfStalled(still waiter: UInt64, longestWait: Duration) -> Duration? {
        let (next, released) = state.withLock { state -> (Duration?, Waiter?) in
            guard state.waiters.contains(where: { $0.id == waiter }) else { return (nil, nil) }
            let stalled = ContinuousClock.now - state.lastProgress
            guard stalled >= longestWait else { return (longestWait - stalled, nil) }
            let first = state.waiters.removeFirst()
            state.lastProgress = .now
            state.wentAhead.append(state.lastProgress)
            return (first.id == waiter ? nil : longestWait, first)
        }
        released?.continuation.resume(returning: false)
        return next
    }

    /// A slot is free: the longest waiter takes it.
    fileprivate func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.lastProgress = .now
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}

/// One test's slot for a private bus; free again when this goes away.
package final class DaemonSlot: Sendable {
    /// Nil when the test went ahead without a slot.
    private let slots: DaemonSlots?

    fileprivate init(slots: DaemonSlots?) {
        self.slots = slots
    }

    deinit {
        slots?.release()
    }
}
