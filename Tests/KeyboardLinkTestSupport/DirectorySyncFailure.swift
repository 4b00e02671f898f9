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

/// File system calls whose `fsync` fails with `EIO` on directories only, so that an atomic write fails after its
/// rename succeeded (the file `fsync` and the rename go through).
final class DirectorySyncFailure: Sendable {
    /// The open directory descriptors; a descriptor number leaves the set when closed, as the kernel reuses it.
    private let directories = Mutex<Set<Int32>>([])

    /// The system calls with the failure injected.
    var syscalls: FileSyscalls {
        var calls = FileSyscalls.system
        calls.open = { path, flags, mode in
            let fd = FileSyscalls.system.open(path, flags, mode)
            if fd >= 0, flags & O_DIRECTORY != 0 { self.directories.withLock { _ = $0.insert(fd) } }
            return fd
        }
        calls.fsync = { fd in
            self.directories.withLock { $0.contains(fd) } ? -EIO : FileSyscalls.system.fsync(fd)
        }
        calls.close = { fd in
            self.directories.withLock { _ = $0.remove(fd) }
            return FileSyscalls.system.close(fd)
        }
        return calls
    }
}
