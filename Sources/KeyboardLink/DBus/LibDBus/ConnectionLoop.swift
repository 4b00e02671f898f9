import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
    import KeyboardLinkSupport
#endif

/// The one thread that runs every libdbus call of a connection: a `poll` loop over libdbus's file descriptors
/// and timeouts, plus a queue of jobs that other threads hand it (woken through a pipe).
///
/// It is also a `TaskExecutor`: the object server runs method handlers with it as their executor preference, so a
/// handler that does not hop elsewhere runs, and replies, on this thread without a single thread switch. On Linux a
/// `DispatchSource` costs about eight system calls and a cross-thread wake-up per incoming message; this loop
/// costs one `poll`.
final class ConnectionLoop: TaskExecutor, @unchecked Sendable {
    // Why @unchecked Sendable is safe: `pendingJobs` is a Mutex; `wakeDescriptor` and `thread` are set once before
    // any other thread can see the loop; every other stored property is touched only on the loop thread (the
    // watch and timeout callbacks come from libdbus calls made on it, and `run()` is its body).

    typealias Job = @Sendable () -> Void

    private struct Queue {
        var jobs: [Job] = []
        var stopped = false
        /// The loop is in (or about to enter) a `poll` that may block: the next job must wake it.
        var sleeping = false
    }

    private let pendingJobs = Mutex<Queue>(Queue())
    private let wakeDescriptor: Int32
    private let wakeWriter: Int32
    /// Runs the jobs that arrive after the loop ended, one at a time, as the loop would have.
    private let afterStop = DispatchQueue(label: "kblink.dbus.closed")

    /// Whether the loop has ended (its connection is closed); jobs then run on `afterStop`.
    var hasStopped: Bool { pendingJobs.withLock { $0.stopped } }

    /// Set by the stop job, read only on the loop thread.
    private var stopRequested = false
    private var thread = pthread_t()
    private let threadReady = Atomic<Bool>(false)

    // Loop-thread state.
    struct WatchEntry {
        var fd: Int32
        var flags: UInt32
        var enabled: Bool
    }

    struct TimeoutEntry {
        var interval: Int
        var enabled: Bool
        var deadline: ContinuousClock.Instant
    }

    var watches: [OpaquePointer: WatchEntry] = [:]
    /// libdbus's own timeouts (rare: method calls are timed by the connection, see CallDeadlines). Changing the table
    /// resets `cachedEarliest`, so a round of the loop need not scan it.
    var timeouts: [OpaquePointer: TimeoutEntry] = [:] {
        didSet { cachedEarliest = nil }
    }
    /// No enabled deadline is earlier than this (`.some(nil)`: there is none); nil when it must be recomputed.
    private var cachedEarliest: ContinuousClock.Instant??

    /// The earliest enabled deadline, scanning the table only after it changed.
    private func earliestDeadline() -> ContinuousClock.Instant? {
        if let known = cachedEarliest { return known }
        var earliest: ContinuousClock.Instant?
        for entry in timeouts.values where entry.enabled {
            if earliest.map({ entry.deadline < $0 }) ?? true { earliest = entry.deadline }
        }
        cachedEarliest = .some(earliest)
        return earliest
    }
    /// The earlier of two optional instants.
    private static func earlier(_ a: ContinuousClock.Instant?, _ b: ContinuousClock.Instant?) -> ContinuousClock
        .Instant?
    {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Called after each round of I/O (the connection dispatches incoming messages here).
    var afterIO: (() -> Void)?
    var handleWatch: ((OpaquePointer, UInt32) -> Void)?
    var handleTimeout: ((OpaquePointer) -> Void)?
    /// The earliest deadline of the connection's own method calls (which it times itself, see CallDeadlines).
    var earliestCallDeadline: (() -> ContinuousClock.Instant?)?
    /// Fails the calls whose deadlines have passed.
    var expireCalls: ((ContinuousClock.Instant) -> Void)?

    /// The thread's name as `top -H`, `ps -L` and `perf` show it (Linux keeps 15 bytes of it).
    let threadName: String

    init(name: String) {
        threadName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        var ends: [Int32] = [-1, -1]
        let piped = pipe(&ends)
        for end in ends where end >= 0 {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        precondition(piped == 0, "cannot create the D-Bus connection thread's wake-up pipe (errno \(errno))")
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
        let box = Unmanaged.passRetained(self).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let created = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                let loop = Unmanaged<ConnectionLoop>.fromOpaque(raw).takeRetainedValue()
                loop.run()
                return nil
            }, box)
        pthread_attr_destroy(&attributes)
        precondition(created == 0, "cannot start the D-Bus connection thread (\(created))")
    }

    /// Whether the caller runs on the loop thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }

    /// Runs `job` on the loop thread, after the jobs already queued.
    func async(_ job: @escaping Job) {
        let (accepted, mustWake) = pendingJobs.withLock { queue -> (Bool, Bool) in
            if queue.stopped { return (false, false) }
            queue.jobs.append(job)
            let mustWake = queue.sleeping
            queue.sleeping = false
            return (true, mustWake)
        }
        guard accepted else {
            // The loop has ended (its connection is closed): the job touches no libdbus state any more, but it must
            // still run, or whoever waits on it would wait forever.
            afterStop.async(execute: job)
            return
        }
        // The loop drains every job before it polls again, so only a sleeping loop needs waking (once: the first job
        // queued clears `sleeping`), and never by itself.
        if mustWake && !isCurrent {
            var one: UInt8 = 1
            // A wake-up lost to a signal would leave the loop asleep with a job queued.
            _ = InterruptedCall.retry { write(wakeWriter, &one, 1) }
        }
    }

    /// Runs `body` on the loop thread and waits for it (directly when already there).
    func sync<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        if isCurrent { return body() }
        let result = Mutex<T?>(nil)
        let done = Atomic<Bool>(false)
        var semaphore = sem_t()
        sem_init(&semaphore, 0, 0)
        defer { sem_destroy(&semaphore) }
        withUnsafeMutablePointer(to: &semaphore) { pointer in
            let handle = SemaphoreHandle(pointer: pointer)
            async {
                let value = body()
                result.withLock { $0 = value }
                done.store(true, ordering: .releasing)
                sem_post(handle.pointer)
            }
            while !done.load(ordering: .acquiring) {
                if InterruptedCall.retry({ sem_wait(pointer) }) != 0 { break }
            }
        }
        return result.withLock { $0! }
    }

    /// Stops the loop after the jobs already queued.
    func stop() {
        async { [self] in stopRequested = true }
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriter)
    }

    // MARK: TaskExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        async { [self] in unowned.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    // MARK: The loop

    /// Names the calling thread (`pthread_setname_np` is not visible from Swift here; this is what it does).
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        var bytes = Array(name.utf8)
        _ = write(descriptor, &bytes, bytes.count)
        close(descriptor)
    }

    /// The longest the loop sleeps in one `poll` while a deadline is pending.
    static let longestSleep: Duration = .seconds(3600)

    /// How many rounds of jobs may run one after another before the loop polls its descriptors again.
    static let roundsBeforePoll = 4

    private func run() {
        Self.nameCurrentThread(threadName)
        var pollDescriptors: [pollfd] = []
        var pollWatches: [OpaquePointer?] = []
        // Two job buffers swapped under the lock: no allocation per round.
        var jobs: [Job] = []
        // The wake-up pipe is drained into this buffer: no allocation per wake-up.
        var drain = [UInt8](repeating: 0, count: 64)
        var roundsWithoutPoll = 0
        var pollBackoff = PollFailureBackoff()
        while !stopRequested {
            pendingJobs.withLock { queue in swap(&queue.jobs, &jobs) }
            for job in jobs { job() }
            jobs.removeAll(keepingCapacity: true)
            if stopRequested { break }
            afterIO?()
            // Jobs queued during this round (typically a task on this executor resumed by a reply just dispatched) run
            // at once instead of after a poll that could only return at once. A few rounds at most, so that a steady
            // stream of jobs never keeps the connection from reading.
            if roundsWithoutPoll < Self.roundsBeforePoll && !pendingJobs.withLock({ $0.jobs.isEmpty }) {
                roundsWithoutPoll += 1
                continue
            }
            roundsWithoutPoll = 0

            pollDescriptors.removeAll(keepingCapacity: true)
            pollWatches.removeAll(keepingCapacity: true)
            pollDescriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
            pollWatches.append(nil)
            for (watch, entry) in watches where entry.enabled {
                var events: Int16 = 0
                if entry.flags & 1 != 0 { events |= Int16(POLLIN) }
                if entry.flags & 2 != 0 { events |= Int16(POLLOUT) }
                pollDescriptors.append(pollfd(fd: entry.fd, events: events, revents: 0))
                pollWatches.append(watch)
            }
            var timeout: Int32 = -1
            let now = ContinuousClock.now
            let callDeadline = earliestCallDeadline?()
            if let deadline = Self.earlier(earliestDeadline(), callDeadline) {
                // Capped before converting: poll takes an Int32 of milliseconds, and a deadline ages away (a caller's
                // way of saying "wait for ever") would overflow the conversion. The loop simply wakes once an hour.
                let remaining = min(now.duration(to: deadline), Self.longestSleep)
                timeout = max(
                    0,
                    Int32(
                        clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds
                            / 1_000_000_000_000_000 + 1))
            }
            // Sleep only with no job queued; from here on, a job queued by another thread writes to the pipe.
            let hasJobs = pendingJobs.withLock { queue -> Bool in
                queue.sleeping = queue.jobs.isEmpty
                return !queue.jobs.isEmpty
            }
            if hasJobs { timeout = 0 }
            let ready = InterruptedCall.retry { poll(&pollDescriptors, nfds_t(pollDescriptors.count), timeout) }
            pendingJobs.withLock { $0.sleeping = false }
            if ready < 0 {
                let wait = pollBackoff.failed()
                var pause = timespec(
                    tv_sec: Int(wait.components.seconds),
                    tv_nsec: Int(wait.components.attoseconds / 1_000_000_000))
                _ = nanosleep(&pause, nil)
                continue
            }
            pollBackoff.succeeded()
            if ready > 0 {
                if pollDescriptors[0].revents != 0 {
                    _ = InterruptedCall.retry { read(wakeDescriptor, &drain, drain.count) }
                }
                for index in 1..<pollDescriptors.count where pollDescriptors[index].revents != 0 {
                    guard let watch = pollWatches[index], let entry = watches[watch], entry.enabled else { continue }
                    let revents = Int32(pollDescriptors[index].revents)
                    var flags: UInt32 = 0
                    if revents & Int32(POLLIN) != 0 { flags |= 1 }
                    if revents & Int32(POLLOUT) != 0 { flags |= 2 }
                    if revents & Int32(POLLERR) != 0 { flags |= 4 }
                    if revents & Int32(POLLHUP) != 0 { flags |= 8 }
                    handleWatch?(watch, flags)
                }
            }
            let after = ContinuousClock.now
            if let callDeadline, callDeadline <= after { expireCalls?(after) }
            if let deadline = earliestDeadline(), deadline <= after {
                cachedEarliest = nil
                for (timeoutPointer, entry) in timeouts where entry.enabled && entry.deadline <= after {
                    // This loop walks a copy: a timeout handled before this one may have removed (and libdbus freed)
                    // it, so only a timeout still in the table is handled.
                    guard timeouts[timeoutPointer]?.enabled == true else { continue }
                    timeouts[timeoutPointer]?.deadline = after.advanced(by: .milliseconds(entry.interval))
                    handleTimeout?(timeoutPointer)
                }
            }
        }
        afterIO = nil
        earliestCallDeadline = nil
        expireCalls = nil
        handleWatch = nil
        handleTimeout = nil
        watches.removeAll()
        timeouts.removeAll()
        let leftovers = pendingJobs.withLock { queue -> [Job] in
            queue.stopped = true
            let taken = queue.jobs
            queue.jobs.removeAll()
            return taken
        }
        for job in leftovers { afterStop.async(execute: job) }
    }
}

/// A semaphore address handed to a job that posts it.
private struct SemaphoreHandle: @unchecked Sendable {
    // Why @unchecked Sendable is safe: the semaphore outlives the job (the caller waits for the post before
    // leaving `withUnsafeMutablePointer`), and sem_post is thread-safe.
    let pointer: UnsafeMutablePointer<sem_t>
}
