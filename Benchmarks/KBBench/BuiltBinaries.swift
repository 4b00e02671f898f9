import Glibc

/// The release binaries the daemon and fairness benchmarks run: `kblinkd`, `kblinkd-demo` and `kblink` next to
/// `kblink-bench` (`.build/release`).
struct BuiltBinaries: Sendable {
    var kblinkd: String
    var kblinkdDemo: String
    var kblink: String

    /// Finds them next to this executable.
    /// - Throws: when one is missing (`swift run kblink-bench` builds only the bench: build the rest first).
    static func locate() throws -> BuiltBinaries {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw BenchError("cannot read /proc/self/exe: errno \(errno)") }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let binaries = BuiltBinaries(
            kblinkd: directory + "/kblinkd", kblinkdDemo: directory + "/kblinkd-demo", kblink: directory + "/kblink")
        for binary in [binaries.kblinkd, binaries.kblinkdDemo, binaries.kblink] where access(binary, X_OK) != 0 {
            throw BenchError(
                "\(binary) is missing: run 'swift build -c release' first ('swift run' builds only the bench)")
        }
        return binaries
    }
}

/// A fresh directory under /tmp, removed with everything in it by `remove()`.
struct ScratchDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/kblink-bench-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else { throw BenchError("mkdtemp failed: errno \(errno)") }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Writes a small file in the directory and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        guard let handle = fopen(file, "w") else { throw BenchError("cannot create \(file): errno \(errno)") }
        defer { fclose(handle) }
        let bytes = Array(text.utf8)
        guard bytes.isEmpty || fwrite(bytes, 1, bytes.count, handle) == bytes.count else {
            throw BenchError("cannot write \(file)")
        }
        return file
    }

    /// Removes the directory and its contents (`rm -rf`, for the daemon's state files).
    func remove() {
        _ = try? ChildProcess.run("/bin/rm", ["-rf", path], environment: [], timeoutSeconds: 10)
    }
}

/// Runs throwing blocking work on a thread of its own (see `blocking`).
func blockingThrows<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await blocking { Result { try work() } }.get()
}
