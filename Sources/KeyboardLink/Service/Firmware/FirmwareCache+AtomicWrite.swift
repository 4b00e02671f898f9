#if canImport(Glibc)
    import Glibc
#endif

extension FirmwareCache {
    /// Creates `path` and its missing parents (mode 0755); an existing directory is fine.
    static func makeDirectory(_ path: String) throws(FirmwareCacheWriteError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw FirmwareCacheWriteError(path: current, step: "create the directory", errno: errno)
            }
        }
    }

    /// Writes `bytes` to a temporary file in `directory`, flushes it, renames it over `path` and flushes the
    /// directory, so the file is either the old one or the complete new one after a crash.
    static func writeAtomically(_ bytes: [UInt8], to path: String, in directory: String)
        throws(FirmwareCacheWriteError)
    {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = retryingEINTR { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw FirmwareCacheWriteError(path: temporary, step: "create", errno: errno) }
        var written = 0
        var failure: FirmwareCacheWriteError?
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                retryingEINTR { write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            if count <= 0 {
                failure = FirmwareCacheWriteError(path: temporary, step: "write", errno: count < 0 ? errno : ENOSPC)
                break
            }
            written += count
        }
        if failure == nil && retryingEINTR({ fsync(fd) }) != 0 {
            failure = FirmwareCacheWriteError(path: temporary, step: "flush", errno: errno)
        }
        if close(fd) != 0 && failure == nil && errno != EINTR {
            failure = FirmwareCacheWriteError(path: temporary, step: "close", errno: errno)
        }
        if failure == nil && rename(temporary, path) != 0 {
            failure = FirmwareCacheWriteError(path: path, step: "rename", errno: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // The rename is durable only once the directory is flushed.
        let directoryFD = retryingEINTR { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard directoryFD >= 0 else {
            throw FirmwareCacheWriteError(path: directory, step: "open the directory", errno: errno)
        }
        defer { close(directoryFD) }
        if retryingEINTR({ fsync(directoryFD) }) != 0 {
            throw FirmwareCacheWriteError(path: directory, step: "flush the directory", errno: errno)
        }
    }

    /// Calls `body` again while it fails with `EINTR`.
    private static func retryingEINTR<T: BinaryInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }
}
