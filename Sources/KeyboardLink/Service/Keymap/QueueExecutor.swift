import Dispatch

/// A serial executor that runs jobs on a dispatch queue of its own, for an actor whose work must not run on the
/// executor its callers prefer (a bus connection's thread, see ``KeymapSessions``).
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    /// Creates the executor and its queue.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
