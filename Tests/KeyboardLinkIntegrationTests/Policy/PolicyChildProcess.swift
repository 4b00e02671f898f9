import Foundation
import Glibc
import KeyboardLinkTestSupport
import Testing

/// A process a test starts: its standard output through a pipe (read with deadlines, so a stuck child fails the
/// test instead of hanging it), its standard error into a file for failure messages.
///
/// Every wait runs on a thread of its own (``offCooperativePool(_:)``): python or systemd-analyze starting on a busy
/// machine takes seconds, and blocking Swift's cooperative threads that long stalls every other test's waits.
final class PolicyChildProcess: @unchecked Sendable {
    // Why @unchecked Sendable is safe: `process`, `output` and `errorPath` are set in init and only read after;
    // `buffer` and `ended` are read and written only under `lock`.
    let process = SpawnedProcess()
    private let output = Pipe()
    private let errorPath: String
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var ended = false

    /// Starts `executable` with `arguments`; standard error goes to `errorPath`.
    init(_ executable: String, _ arguments: [String], errorPath: String) throws {
        self.errorPath = errorPath
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        try #require(FileManager.default.createFile(atPath: errorPath, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
    }

    /// The next line of standard output, or nil at end of output or after `seconds`.
    func readLine(seconds: Double = 60) async throws -> String? {
        try await offCooperativePool { self.lock.withLock { self.blockingReadLine(seconds: seconds) } }
    }

    /// All remaining standard output, or nil when it does not end within `seconds`.
    func readToEnd(seconds: Double = 120) async throws -> String? {
        try await offCooperativePool { self.lock.withLock { self.blockingReadToEnd(seconds: seconds) } }
    }

    /// Waits for the exit status after the output ended.
    func exitStatus() async throws -> Int32 {
        try await offCooperativePool {
            self.process.waitUntilExit()
            return self.process.terminationStatus
        }
    }

    private func blockingReadLine(seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if ended || !fill(until: deadline) {
                return nil
            }
        }
    }

    private func blockingReadToEnd(seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while !ended {
            if !fill(until: deadline) && !ended { return nil }
        }
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// What the process wrote to standard error so far.
    var errorOutput: String {
        (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    }

    /// Stops the process with SIGKILL by pid: a child started from a Swift concurrency thread may ignore SIGTERM
    /// (its signal mask is inherited), and nothing a test starts needs a clean shutdown.
    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// Reads what is available, waiting at most until `deadline`; false when the deadline passed.
    private func fill(until deadline: Date) -> Bool {
        let descriptor = output.fileHandleForReading.fileDescriptor
        let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, remaining)
        if ready < 0 && errno == EINTR { return true }
        guard ready > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { return true }
        if count <= 0 {
            ended = true
        } else {
            buffer += chunk[..<count]
        }
        return true
    }
}
