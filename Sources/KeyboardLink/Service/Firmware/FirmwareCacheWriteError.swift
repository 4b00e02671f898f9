#if canImport(Glibc)
    import Glibc
#endif

/// A firmware cache file that could not be written; the previous file, if any, is untouched.
public struct FirmwareCacheWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or directory concerned.
    public var path: String
    /// The step that failed (`create`, `write`, `flush`, `rename`, ...).
    public var step: String
    /// Why.
    public var reason: String

    /// Creates an error.
    public init(path: String, step: String, reason: String) {
        self.path = path
        self.step = step
        self.reason = reason
    }

    /// An error from a failed system call.
    init(path: String, step: String, errno code: Int32) {
        self.init(path: path, step: step, reason: String(cString: strerror(code)))
    }

    public var description: String {
        "cannot \(step) \(path): \(reason); check that the state directory is writable by kblinkd"
    }
}
