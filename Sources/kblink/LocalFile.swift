import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkClient
import KeyboardLinkCommandLine
import KeyboardLinkDBus
import KeyboardLinkFirmware
import KeyboardLinkKeymap
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Files the CLI reads and writes for the user (profiles, recorded input events), with size limits and errors
/// that say which file and what went wrong.
enum LocalFile {
    /// A file problem; the CLI prints it and exits with 1.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The bytes of a file (`-` is standard input), refusing more than `limit` bytes.
    /// - Throws: ``Failure``.
    static func read(_ path: String, limit: Int, what: String) throws -> [UInt8] {
        let fd: Int32
        if path == "-" {
            fd = STDIN_FILENO
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Failure(description: "cannot open \(what) \(path): \(errorText(errno))") }
        }
        defer { if path != "-" { _ = close(fd) } }
        var status = stat()
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw Failure(description: "\(path) is a directory, not \(what)")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in Glibc.read(fd, buffer.baseAddress, buffer.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read \(what) \(path): \(errorText(errno))")
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit {
                throw Failure(description: "\(path) is larger than \(limit >> 20) MiB: it is not \(what)")
            }
        }
    }

    /// The text of a file, which must be UTF-8.
    /// - Throws: ``Failure``.
    static func readText(_ path: String, limit: Int, what: String) throws -> String {
        let bytes = try read(path, limit: limit, what: what)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(description: "\(path) is not UTF-8 text: it is not \(what)")
        }
        return text
    }

    /// Writes a file atomically: a new temporary file beside it, synced, renamed over it, then the directory synced
    /// so that the rename survives a crash. The temporary file is created exclusively under an unpredictable name
    /// and never through a symbolic link, so a link planted beside the file cannot redirect the write. A replaced
    /// file keeps its permission bits; a new one is created 0644 (less the umask).
    /// - Throws: ``Failure``; the previous file is then untouched, unless only the final directory sync failed
    ///   (the message says so).
    static func write(_ text: String, to path: String) throws {
        var existing = stat()
        var keptMode: mode_t?
        if stat(path, &existing) == 0 {
            if (existing.st_mode & S_IFMT) == S_IFDIR {
                throw Failure(description: "cannot write \(path): it is a directory")
            }
            keptMode = existing.st_mode & 0o777
        }
        let (fd, temporary) = try createTemporary(beside: path, mode: keptMode ?? 0o644)
        var failure: Int32?
        // fchmod, not the mode given to open: the umask must not narrow the mode of the file being replaced.
        if let keptMode, fchmod(fd, keptMode) != 0 { failure = errno }
        let bytes = Array(text.utf8)
        var offset = 0
        while failure == nil, offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.write(fd, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += written
        }
        if failure == nil, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            _ = unlink(temporary)
            throw Failure(description: "cannot write \(path): \(errorText(failure))")
        }
        if let code = syncDirectory(of: path) {
            throw Failure(description: "\(path) was written, but syncing its directory failed: \(errorText(code))")
        }
    }

    /// Creates `PATH.kblink-PID-RANDOM` with `O_EXCL | O_NOFOLLOW`, trying a new name when one exists.
    /// - Throws: ``Failure`` naming `path`.
    private static func createTemporary(beside path: String, mode: mode_t) throws -> (fd: Int32, path: String) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<16 {
            let temporary = "\(path).kblink-\(getpid())-\(String(generator.next() as UInt64, radix: 36))"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 { return (fd, temporary) }
            if errno != EEXIST { throw Failure(description: "cannot write \(path): \(errorText(errno))") }
        }
        throw Failure(description: "cannot write \(path): no free temporary name beside it")
    }

    /// Syncs the directory holding `path`; returns the errno when that fails (EINVAL, a file system that cannot
    /// sync directories, is not a failure).
    private static func syncDirectory(of path: String) -> Int32? {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { _ = close(fd) }
        if fsync(fd) != 0, errno != EINVAL { return errno }
        return nil
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
