import Glibc

/// The C file calls the keymap storage makes, as replaceable closures so that tests can inject failures such as
/// a full disk (swift-system's mocking idea). Each returns its C result, or `-errno` on failure.
///
/// `EINTR` is retried by ``InterruptedCall/retryNegatedErrno(_:)``, which every call site goes through.
package struct FileSyscalls: Sendable {
    /// `open(2)`: a descriptor or `-errno`.
    package var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    /// `write(2)`: bytes written or `-errno`.
    package var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    /// `read(2)`: bytes read (0 at the end) or `-errno`.
    package var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int
    /// `fsync(2)`: 0 or `-errno`.
    package var fsync: @Sendable (_ fd: Int32) -> Int32
    /// `close(2)`: 0 or `-errno` (never retried: Linux closes the descriptor even when interrupted).
    package var close: @Sendable (_ fd: Int32) -> Int32
    /// `rename(2)`: 0 or `-errno`.
    package var rename: @Sendable (_ from: String, _ to: String) -> Int32
    /// `link(2)`: 0 or `-errno`.
    package var link: @Sendable (_ from: String, _ to: String) -> Int32
    /// `unlink(2)`: 0 or `-errno`.
    package var unlink: @Sendable (_ path: String) -> Int32
    /// `mkdir(2)`: 0 or `-errno`.
    package var mkdir: @Sendable (_ path: String, _ mode: mode_t) -> Int32

    /// The real system calls.
    package static let system = FileSyscalls(
        open: { path, flags, mode in
            let fd = Glibc.open(path, flags, mode)
            return fd >= 0 ? fd : -errno
        },
        write: { fd, bytes in
            guard let base = bytes.baseAddress else { return 0 }
            let written = Glibc.write(fd, base, bytes.count)
            return written >= 0 ? written : -Int(errno)
        },
        read: { fd, buffer in
            guard let base = buffer.baseAddress else { return 0 }
            let count = Glibc.read(fd, base, buffer.count)
            return count >= 0 ? count : -Int(errno)
        },
        fsync: { fd in Glibc.fsync(fd) == 0 ? 0 : -errno },
        close: { fd in Glibc.close(fd) == 0 ? 0 : -errno },
        rename: { from, to in Glibc.rename(from, to) == 0 ? 0 : -errno },
        link: { from, to in Glibc.link(from, to) == 0 ? 0 : -errno },
        unlink: { path in Glibc.unlink(path) == 0 ? 0 : -errno },
        mkdir: { path, mode in Glibc.mkdir(path, mode) == 0 ? 0 : -errno }
    )
}
