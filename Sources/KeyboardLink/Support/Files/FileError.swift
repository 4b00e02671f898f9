import Glibc

/// A file operation that failed: what was being done, to which path, and the errno, described in words a person
/// can act on ("creating the directory /var/lib/kblink failed: permission denied (EACCES)").
package struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done, as a verb phrase ("opening", "renaming the new file over").
    package var operation: String
    /// The path it was done to.
    package var path: String
    /// The errno it failed with.
    package var errno: Int32

    package init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    package var description: String { "\(operation) \(path) failed: \(Self.errnoText(errno))" }

    /// What an errno means and its name, for the errors file operations meet; others get the system's text and
    /// their number, so a message never says just "errno N".
    package static func errnoText(_ code: Int32) -> String {
        if let (meaning, name) = errnoNames[code] { return "\(meaning) (\(name))" }
        let system = strerror(code).map { String(cString: $0) } ?? "unknown error"
        return "\(system) (errno \(code))"
    }

    private static let errnoNames: [Int32: (String, String)] = [
        EPERM: ("operation not permitted", "EPERM"),
        ENOENT: ("no such file or directory", "ENOENT"),
        EINTR: ("interrupted system call", "EINTR"),
        EIO: ("input/output error", "EIO"),
        ENXIO: ("no such device or address", "ENXIO"),
        EBADF: ("bad file descriptor", "EBADF"),
        EAGAIN: ("resource temporarily unavailable", "EAGAIN"),
        ENOMEM: ("out of memory", "ENOMEM"),
        EACCES: ("permission denied", "EACCES"),
        EFAULT: ("bad address", "EFAULT"),
        EBUSY: ("device or resource busy", "EBUSY"),
        EEXIST: ("file exists", "EEXIST"),
        EXDEV: ("not on the same file system", "EXDEV"),
        ENODEV: ("no such device", "ENODEV"),
        ENOTDIR: ("not a directory", "ENOTDIR"),
        EISDIR: ("is a directory", "EISDIR"),
        EINVAL: ("invalid argument", "EINVAL"),
        ENFILE: ("too many open files in the system", "ENFILE"),
        EMFILE: ("too many open files", "EMFILE"),
        ETXTBSY: ("text file busy", "ETXTBSY"),
        EFBIG: ("file too large", "EFBIG"),
        ENOSPC: ("no space left on the device", "ENOSPC"),
        ESPIPE: ("illegal seek", "ESPIPE"),
        EROFS: ("read-only file system", "EROFS"),
        EMLINK: ("too many links", "EMLINK"),
        EPIPE: ("broken pipe", "EPIPE"),
        ENAMETOOLONG: ("file name too long", "ENAMETOOLONG"),
        ENOTEMPTY: ("directory not empty", "ENOTEMPTY"),
        ELOOP: ("too many levels of symbolic links", "ELOOP"),
        EOVERFLOW: ("value too large for the data type", "EOVERFLOW"),
        ENOTSUP: ("operation not supported", "ENOTSUP"),
        ETIMEDOUT: ("timed out", "ETIMEDOUT"),
        ESTALE: ("stale file handle", "ESTALE"),
        EDQUOT: ("disk quota exceeded", "EDQUOT"),
    ]
}
