import Glibc
import Synchronization

@testable import KeyboardLinkKeymap

/// A thread-safe counter for injected system calls.
final class SyscallCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one call and returns how many came before it.
    func next() -> Int { count.add(1, ordering: .relaxed).oldValue }
}
