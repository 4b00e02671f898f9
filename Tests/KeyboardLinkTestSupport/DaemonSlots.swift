import Synchronization

/// Bounds how many private `dbus-daemon`s (with the daemons a test runs on them) are alive at once.
///
/// Swift Testing starts every test of the process at once, and a test mostly waits, so without a bound several
/// hundred private buses run side by side (410 were counted). Each `dbus-daemon` holds an inotify instance, and a
/// user has 128 of them (`fs.inotify.max_user_instances`): the tests that watch input devices then fail with
/// "cannot start inotify: Too many open files". A test takes a slot before it starts its bus and gives it back
/// when the bus stops (``DaemonSlot`` going away); a test that waits for a slot has not started its clock.
package final class DaemonSlots: Sendable {
    /// The slots the whole test process shares: 24 buses use at most a few inotify instances each.
    package static let shared = DaemonSlots(count: 24)

    /// How long a test waits for a slot before it goes ahead without one, so that a test holding two buses
    /// cannot wait forever on tests that wait for it.
    package static let longestWait: Duration = .seconds(120)

    private struct State {
        var free: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextWaiter: UInt64 = 0
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

    /// Waits for a free slot (at most ``longestWait``); the slot is free again when the returned value goes away.
    package func acquire(waitingAtMost longestWait: Duration = DaemonSlots.longestWait) async -> DaemonSlot {
        let counted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let waiter: UInt64? = state.withLock { state in
                if state.free > 0 {
                    state.free -= 1
                    return nil
                }
                let id = state.nextWaiter
                state.nextWaiter += 1
                state.waiters.append((id, continuation))
                return id
            }
            guard let waiter else {
                continuation.resume(returning: true)
                return
            }
            Task {
                try? await Task.sleep(for: longestWait)
                self.giveUp(waiter)
            }
        }
        return DaemonSlot(slots: counted ? self : nil)
    }

    /// A waiter that waited ``longestWait`` goes ahead without a slot.
    private func giveUp(_ waiter: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == waiter }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        continuation?.resume(returning: false)
    }

    /// A slot is free: the longest waiter takes it.
    fileprivate func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
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
