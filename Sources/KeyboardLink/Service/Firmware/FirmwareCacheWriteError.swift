#if canImport(Glibc)
    import Glibc
#endif

/// A firmware cache file that could not be written; the previous file, if any, is untouched.
package struct FirmwareCacheWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or directory concerned.
    package var path: String
    /// The step that failed (`create`, `write`, `flush`, `rename`, ...).
    package var step: String
    /// Why.
    package var reason: String

    /// Creates an error.
    package init(path: String, step: String, reason: String) {
        self.path = path
        self.step = step
        self.reason = reason
    }

    /// An error from a failed system call.
    init(path: String, step: String, errno code: Int32) {
        self.init(path: path, step: step, reason: String(cString: strerror(code)))
    }

    package var description: String {
        "cannot \(step) \(path): \(reason); check that the state directory is writable by kblinkd"
    }
}
