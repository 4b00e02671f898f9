import Glibc
import Synchronization

@testable import InsetCore
@testable import KBlinkAPI
@testable import KeyboardLinkBlueZ
@testable import KeyboardLinkClient
@testable import KeyboardLinkCommandLine
@testable import KeyboardLinkDBus
@testable import KeyboardLinkDrivers
@testable import KeyboardLinkFirmware
@testable import KeyboardLinkKeymap
@testable import KeyboardLinkPairing
@testable import KeyboardLinkPresence
@testable import KeyboardLinkService
@testable import KeyboardLinkSimulator
@testable import KeyboardLinkSupport

/// A thread-safe counter for injected system calls.
final class SyscallCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one call and returns how many came before it.
    func next() -> Int { count.add(1, ordering: .relaxed).oldValue }
}
