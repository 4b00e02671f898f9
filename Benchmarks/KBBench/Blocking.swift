import Dispatch

/// Runs blocking work (the C reference functions) on a serial queue of its own and awaits its result.
///
/// A private serial queue gets a thread of its own from libdispatch, so a blocked C call never occupies the
/// cooperative pool that the Swift client and server need at the same moment.
func blocking<T: Sendable>(_ label: String = "kblink-bench.c", _ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue(label: label).async { continuation.resume(returning: work()) }
    }
}

/// A C handle used from one blocking job at a time; the awaits between jobs order every use.
struct CHandle: @unchecked Sendable {
    // Why @unchecked Sendable is safe: the benchmark awaits each blocking job before starting the next one that
    // uses the same handle, so no two threads ever touch it at once.
    let pointer: OpaquePointer
}

/// A failure of the benchmark itself (setup, a wrong answer).
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
