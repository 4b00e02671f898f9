import Foundation
import KeyboardLinkTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A tool from another D-Bus implementation (gdbus, busctl, a python3-dbus script) run as a child process.
///
/// Its standard output is collected line by line as it arrives and its standard error whole, each on a thread of
/// its own (never a Swift concurrency or dispatch pool thread). It is stopped with SIGKILL by pid: a child started from a Swift
/// concurrency thread may inherit a signal mask that blocks SIGTERM (swift-corelibs-foundation issue 4772).
final class ToolProcess: Sendable {
    /// Why a child did not give what a test waited for.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private struct Output {
        var lines: [String] = []
        var partialLine: [UInt8] = []
        var standardError: [UInt8] = []
        /// The next line ``nextLine(timeout:)`` hands out.
        var cursor = 0
        var outputClosed = false
        var errorClosed = false
    }

    /// The command line, for failure messages.
    let commandLine: String
    private let process: SpawnedProcess
    private let output = OutputBuffer()
    /// A temporary directory that belongs to this child (its script), removed with it.
    private let temporaryDirectory: URL?

    /// Starts `executable` with `arguments`; `environment` replaces the child's environment when given.
    /// - Throws: ``Failure`` when the executable cannot be started.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        removingWhenDone temporaryDirectory: URL? = nil
    ) throws {
        self.temporaryDirectory = temporaryDirectory
        commandLine = ([executable] + arguments).joined(separator: " ")
        process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start \(commandLine): \(error)")
        }
        // The parent's copies of the write ends must go, or the readers never see end of file.
        try? standardOutput.fileHandleForWriting.close()
        try? standardError.fileHandleForWriting.close()
        Self.drain(standardOutput.fileHandleForReading, into: output, isError: false)
        Self.drain(standardError.fileHandleForReading, into: output, isError: true)
    }

    deinit {
        kill()
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Every complete line printed on standard output so far.
    var lines: [String] { output.withLock { $0.lines } }

    /// Everything printed on standard output so far (complete lines, newline-separated).
    var standardOutput: String { lines.joined(separator: "\n") }

    /// Everything printed on standard error so far.
    var standardError: String { output.withLock { String(decoding: $0.standardError, as: UTF8.self) } }

    /// What the child printed; a class of its own so the reader threads do not keep the child alive.
    private final class OutputBuffer: Sendable {
        let state = Mutex(Output())

        func withLock<T>(_ body: (inout Output) -> T) -> T { state.withLock { body(&$0) } }
    }

    /// Reads a pipe to its end on a thread of its own, storing lines (stdout) or bytes (stderr).
    ///
    /// Not on a dispatch global queue: blocked reads there starve the pool that Swift concurrency shares on
    /// Linux, and libdispatch only adds threads after seconds.
    private static func drain(_ handle: FileHandle, into output: OutputBuffer, isError: Bool) {
        let fd = handle.fileDescriptor
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                output.withLock { state in
                    if isError {
                        state.standardError += buffer[0..<count]
                        return
                    }
                    for byte in buffer[0..<count] {
                        if byte == 0x0A {
                            state.lines.append(String(decoding: state.partialLine, as: UTF8.self))
                            state.partialLine.removeAll(keepingCapacity: true)
                        } else {
                            state.partialLine.append(byte)
                        }
                    }
                }
            }
            output.withLock { state in
                if isError {
                    state.errorClosed = true
                } else {
                    if !state.partialLine.isEmpty {
                        state.lines.append(String(decoding: state.partialLine, as: UTF8.self))
                        state.partialLine.removeAll()
                    }
                    state.outputClosed = true
                }
            }
            try? handle.close()
        }
    }

    /// The next line of standard output not handed out before, waiting up to `timeout`.
    /// - Throws: ``Failure`` (with the child's standard error) when none arrives in time or the output ends.
    func nextLine(timeout: Duration = waitDeadline) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (line, closed) = output.withLock { state -> (String?, Bool) in
                guard state.cursor < state.lines.count else { return (nil, state.outputClosed) }
                defer { state.cursor += 1 }
                return (state.lines[state.cursor], false)
            }
            if let line { return line }
            if closed {
                throw Failure(description: "\(commandLine) ended its output early; stderr: \(standardError)")
            }
            if clock.now >= deadline {
                throw Failure(description: "no line from \(commandLine) within \(timeout); stderr: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits for the child to exit; kills it with SIGKILL after `timeout`.
    /// - Returns: the exit status, once standard output and standard error have been read to their end.
    /// - Throws: ``Failure`` when the child had to be killed.
    @discardableResult
    func waitForExit(timeout: Duration = waitDeadline) async throws -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while process.isRunning || !output.withLock({ $0.outputClosed && $0.errorClosed }) {
            if clock.now >= deadline {
                kill()
                throw Failure(
                    description: "\(commandLine) did not finish within \(timeout) and was killed; "
                        + "stdout: \(standardOutput); stderr: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }

    /// Stops the child with SIGKILL (it cannot be ignored) and reaps it.
    func kill() {
        guard process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// What a command that ran to its end left.
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs a command to its end, whatever its exit status.
    /// - Throws: ``Failure`` when it cannot start or runs longer than `timeout` (it is then killed).
    static func outcome(_ executable: String, _ arguments: [String], timeout: Duration = waitDeadline) async throws
        -> Outcome
    {
        let child = try ToolProcess(executable, arguments)
        let status = try await child.waitForExit(timeout: timeout)
        return Outcome(status: status, output: child.standardOutput, error: child.standardError)
    }

    /// Runs a command to its end.
    /// - Returns: the child's standard output.
    /// - Throws: ``Failure`` when it cannot start, exits with a non-zero status, or runs longer than `timeout`.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration = waitDeadline) async throws
        -> String
    {
        let result = try await outcome(executable, arguments, timeout: timeout)
        guard result.status == 0 else {
            throw Failure(
                description: "\(([executable] + arguments).joined(separator: " ")) exited with status "
                    + "\(result.status); stdout: \(result.output); stderr: \(result.error)")
        }
        return result.output
    }
}
