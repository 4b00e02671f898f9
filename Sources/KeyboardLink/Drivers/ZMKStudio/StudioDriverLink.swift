/// The I/O half of a ZMK Studio client: sends request frames through `send`, takes the keyboard's bytes from
/// `receive`, and hands each caller its answer, with a bounded wait. Tracks the lock state for `waitUntilUnlocked`
/// (and hands it to whoever watches `lockStates`) from what the keyboard sends, in the order it sends it: `lock_state_changed` notifications, `get_lock_state`
/// answers and `UNLOCK_REQUIRED` errors. (Recording an answer's lock state after it reached its caller would let a
/// later notification be overwritten: an unlock that arrives right behind an `UNLOCK_REQUIRED` would be lost, and
/// a push would wait its whole unlock timeout on a keyboard that is unlocked.)
package actor StudioDriverLink {
    /// Writes one request frame to the keyboard.
    package typealias Send = @Sendable ([UInt8]) async throws(DriverError) -> Void

    private let send: Send
    private var core = StudioRPCClientCore()
    private var waiters: [UInt32: CheckedContinuation<Result<StudioRequestResponse.Payload, DriverError>, Never>] =
        [:]
    /// Per waiting request, the task that sends it and then fails it after `timeout`.
    private var timers: [UInt32: Task<Void, Never>] = [:]
    private var unlockWaiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    private var nextUnlockWaiter = 0
    private var closed = false
    /// The lock state last reported by the keyboard; nil before any report.
    package private(set) var lockState: StudioLockState?
    /// Whether the keyboard last said it holds unsaved changes.
    package private(set) var hasUnsavedChanges = false

    /// How long a request may wait while the keyboard sends nothing: an answer still arriving (a keymap comes in
    /// notifications of 20 bytes or so, slower on a busy radio or a loaded host) keeps it waiting.
    package let timeout: Duration
    /// When the keyboard last sent bytes.
    private var lastHeard = ContinuousClock.now

    /// Where each lock state the keyboard reports goes, in the order it reports them; finished when the link closes.
    private let lockStates: AsyncStream<StudioLockState>.Continuation?

    /// Creates a link that writes frames with `send`.
    /// - Parameter lockStates: given every lock state the link learns (an answer to `get_lock_state`, a
    ///   `lock_state_changed` notification, an `UNLOCK_REQUIRED` error, a keymap answer), in order; finished when
    ///   the link closes.
    package init(
        timeout: Duration = .seconds(5), lockStates: AsyncStream<StudioLockState>.Continuation? = nil,
        send: @escaping Send
    ) {
        self.timeout = timeout
        self.lockStates = lockStates
        self.send = send
    }

    /// Sends a request and waits for its answer.
    /// - Throws: `DriverError.notConnected` when the link is closed or closes, `.failed` after `timeout` of silence.
    package func call(_ subsystem: StudioRequest.Subsystem) async throws(DriverError) -> StudioRequestResponse.Payload {
        guard !closed else { throw .notConnected("the keyboard's ZMK Studio link is closed; reconnect and retry") }
        let (id, frame) = core.makeRequest(subsystem)
        let timeout = self.timeout
        let result = await withCheckedContinuation { continuation in
            waiters[id] = continuation
            timers[id] = Task {
                do throws(DriverError) {
                    try await send(frame)
                } catch {
                    self.fail(id, error)
                    return
                }
                var deadline = ContinuousClock.now.advanced(by: timeout)
                while true {
                    do {
                        try await Task.sleep(until: deadline)
                    } catch {
                        return  // Answered: the timer was cancelled.
                    }
                    // Bytes arrived meanwhile: the answer may still be coming in.
                    guard let later = self.silenceEnds(after: deadline) else { break }
                    deadline = later
                }
                self.fail(id, .failed("the keyboard sent nothing for \(timeout); wake it and retry"))
            }
        }
        return try result.get()
    }

    /// Feeds bytes the keyboard indicated (any chunking).
    package func receive(_ chunk: [UInt8]) {
        if !chunk.isEmpty { lastHeard = ContinuousClock.now }
        for event in core.receive(chunk) {
            switch event {
            case .response(let id, _, let payload):
                switch payload {
                case .core(.lockState(let state)): noteLockState(state)
                case .meta(.simpleError(.unlockRequired)): noteLockState(.locked)
                // ZMK answers keymap calls only while unlocked (locked, it answers UNLOCK_REQUIRED).
                case .keymap where lockState != .unlocked: noteLockState(.unlocked)
                default: break
                }
                timers.removeValue(forKey: id)?.cancel()
                waiters.removeValue(forKey: id)?.resume(returning: .success(payload))
            case .notification(.core(.lockStateChanged(let state))):
                noteLockState(state)
            case .notification(.keymap(.unsavedChangesStatusChanged(let flag))):
                hasUnsavedChanges = flag
            case .notification, .unmatchedResponse, .framingError, .decodingError:
                break
            }
        }
    }

    /// Records a lock state the keyboard reported, waking the callers waiting for an unlock.
    private func noteLockState(_ state: StudioLockState) {
        lockState = state
        lockStates?.yield(state)
        guard state == .unlocked else { return }
        let waiting = unlockWaiters
        unlockWaiters.removeAll()
        for continuation in waiting.values { continuation.resume(returning: true) }
    }

    /// Waits for `lock_state_changed(unlocked)`, at most `timeout`.
    /// - Returns: whether the keyboard is unlocked.
    package func waitUntilUnlocked(timeout: Duration) async -> Bool {
        if lockState == .unlocked { return true }
        if closed { return false }
        let token = nextUnlockWaiter
        nextUnlockWaiter += 1
        return await withCheckedContinuation { continuation in
            unlockWaiters[token] = continuation
            Task {
                try? await Task.sleep(for: timeout)
                self.endUnlockWait(token)
            }
        }
    }

    /// The link went down: every waiting call fails with `.notConnected`.
    package func connectionClosed() {
        closed = true
        lockStates?.finish()
        _ = core.connectionClosed()
        let waiting = waiters
        waiters.removeAll()
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        for continuation in waiting.values {
            continuation.resume(
                returning: .failure(.notConnected("the keyboard disconnected before answering; reconnect it and retry"))
            )
        }
        let unlocking = unlockWaiters
        unlockWaiters.removeAll()
        for continuation in unlocking.values { continuation.resume(returning: false) }
    }

    /// Whether the link was closed.
    package var isClosed: Bool { closed }

    private func fail(_ id: UInt32, _ error: DriverError) {
        timers[id] = nil
        guard let continuation = waiters.removeValue(forKey: id) else { return }
        core.cancel(requestID: id)
        continuation.resume(returning: .failure(error))
    }

    /// When `timeout` of silence ends, counted from the last bytes heard, if that is after `deadline`; nil when the
    /// keyboard has been silent since `deadline - timeout`.
    private func silenceEnds(after deadline: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let end = lastHeard.advanced(by: timeout)
        return end > deadline ? end : nil
    }

    private func endUnlockWait(_ token: Int) {
        unlockWaiters.removeValue(forKey: token)?.resume(returning: lockState == .unlocked)
    }
}
