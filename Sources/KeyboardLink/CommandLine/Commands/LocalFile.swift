import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
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

    /// The bytes of a file (`-` is standard input, the descriptor `standardInput`), refusing more than `limit`
    /// bytes.
    /// - Throws: ``Failure``.
    static func read(_ path: String, limit: Int, what: String, standardInput: Int32) throws -> [UInt8] {
        let fd: Int32
        if path == "-" {
            guard standardInput >= 0 else { throw Failure(description: "no standard input to read \(what) from") }
            fd = standardInput
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
            let count = chunk.withUnsafeMutableBytes { buffer in
                InterruptedCall.retry { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 {
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
    static func readText(_ path: String, limit: Int, what: String, standardInput: Int32) throws -> String {
        let bytes = try read(path, limit: limit, what: what, standardInput: standardInput)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(description: "\(path) is not UTF-8 text: it is not \(what)")
        }
        if let zero = bytes.firstIndex(of: 0) {
            throw Failure(description: "\(path) holds binary data (a NUL byte at offset \(zero)): it is not \(what)")
        }
        return text
    }

    /// Writes a file atomically: a new temporary file beside it, synced, renamed over it, then the directory synced
    /// so that the rename survives a crash. The temporary file is created exclusively under an unpredictable name
    /// and never through a symbolic link, so a link planted beside the file cannot redirect the write. A replaced
    /// file keeps its permission bits (never widened); a new one is created 0600: an exported profile holds the
    /// macros' text, which may type a password.
    /// - Throws: ``Failure``; the previous file is then untouched, unless only the final directory sync failed
    ///   (the message says so).
    static func write(_ text: String, to path: String) throws {
        let warning: FileError?
        do {
            warning = try FileStore().writeAtomically(Array(text.utf8), to: path, mode: 0o600, keepingMode: true)
        } catch {
            throw Failure(description: "cannot write \(path): \(errorText(error.errno))")
        }
        if let warning {
            throw Failure(
                description: "\(path) was written, but syncing its directory failed: \(errorText(warning.errno))")
        }
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
