import Glibc
import KeyboardLinkSupport
import Synchronization

/// File system calls whose `fsync` fails with `EIO` on directories only, so that an atomic write fails after its
/// rename succeeded (the file `fsync` and the rename go through).
package final class DirectorySyncFailure: Sendable {
    /// The open directory descriptors; a descriptor number leaves the set when closed, as the kernel reuses it.
    private let directories = Mutex<Set<Int32>>([])

    /// Directory `fsync` fails from the start.
    package init() {}

    /// The system calls with the failure injected.
    package var syscalls: FileSyscalls {
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
