import Glibc
import KeyboardLinkSupport

extension DaemonConfiguration {
    /// What to do when the configuration file does not exist.
    package enum MissingFile: Sendable {
        /// Use the defaults: right for ``DaemonConfiguration/defaultPath``, which a fresh install does not have.
        case useDefaults
        /// Fail: right for a file the user named with `--config`.
        case fail
    }

    /// Reads and parses the configuration file at `path`.
    /// - Parameters:
    ///   - path: the file to read.
    ///   - missingFile: whether a missing file means defaults or an error.
    /// - Throws: ``ConfigurationError`` when the file cannot be read (the reason from the system), is too large,
    ///   is not UTF-8, or holds a malformed line or a bad value.
    package static func load(path: String, missingFile: MissingFile = .fail) throws(ConfigurationError) -> Parsed {
        let bytes: [UInt8]
        switch readFile(path) {
        case .success(let contents):
            bytes = contents
        case .failure(let error) where error.code == ENOENT && missingFile == .useDefaults:
            return Parsed(configuration: DaemonConfiguration(), warnings: [])
        case .failure(let error):
            throw ConfigurationError(file: path, message: "cannot read the configuration file: \(error)")
        }
        return try interpret(INIDocument(parsing: bytes, fileName: path))
    }

    /// Reads a whole regular file, stopping one byte past ``INIDocument/maximumSize`` so the parser reports it.
    private static func readFile(_ path: String) -> Result<[UInt8], FileError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(FileError(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(FileError(errno)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(FileError(EINVAL, reason: "it is not a regular file"))
        }
        let limit = INIDocument.maximumSize + 1
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { raw in
                InterruptedCall.retry { read(descriptor, raw.baseAddress, raw.count) }
            }
            if count == 0 { break }
            if count < 0 {
                return .failure(FileError(errno))
            }
            bytes += chunk[..<count]
        }
        return .success(bytes)
    }

    /// An `errno` from reading the file, described for people.
    private struct FileError: Error, CustomStringConvertible {
        let code: Int32
        let description: String

        init(_ code: Int32, reason: String? = nil) {
            self.code = code
            let text = reason ?? strerror(code).map { String(cString: $0) } ?? "errno \(code)"
            description = code == ENOENT ? text + "; check the path given with --config" : text
        }
    }
}
