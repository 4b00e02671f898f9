import Foundation

/// What a child process printed and how it ended.
package struct ProcessResult: Sendable {
    package var status: Int32
    package var standardOutput: String
    package var standardError: String

    package init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The non-empty lines of standard output.
    package var lines: [String] {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}

/// A child process whose output is collected as it runs.
package final class ChildProcess: @unchecked Sendable {
    // Why @unchecked Sendable is safe: `output`/`errors` are only touched under `lock`; `process` is configured
    // before launch and afterwards only read or signalled, which Foundation.Process allows from any thread.
    package let process = SpawnedProcess()
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    /// The pipes (standard output, standard error) still open: each reader counts itself out at end of file.
    private var openPipes = 2

    /// Starts the program.
    /// - Parameter input: written to the child's standard input, which is then closed; nil: `/dev/null`.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil
    ) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        // Each pipe is drained by a thread of its own until EOF: no FileHandle.readabilityHandler, whose dispatch
        // source can outlive its descriptor and crash libdispatch, and no blocking of the cooperative pool.
        for (pipe, isOutput) in [(out, true), (err, false)] {
            // The thread holds the handle, which closes the descriptor when released.
            let handle = pipe.fileHandleForReading
            let thread = Thread { [weak self] in
                // Blocks until some bytes arrive; empty at end of file (EINTR retried, see PipeReading).
                while case let chunk = PipeReading.next(from: handle.fileDescriptor), !chunk.isEmpty {
                    let data = Data(chunk)
                    guard let self else { return }
                    self.lock.withLock {
                        if isOutput { self.output.append(data) } else { self.errors.append(data) }
                    }
                }
                self?.lock.withLock { self?.openPipes -= 1 }
            }
            thread.start()
        }
        try process.run()
        if let input, let inputPipe {
            // Small inputs fit the pipe's buffer, so this does not wait for the child to read.
            try inputPipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
    }

    package var standardOutput: String { lock.withLock { String(decoding: output, as: UTF8.self) } }
    package var standardError: String { lock.withLock { String(decoding: errors, as: UTF8.self) } }

    /// Sends a signal (SIGKILL cannot be ignored; see dbus-binding.md on inherited signal masks).
    package func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit, up to `timeout`; kills the child after that.
    package func wait(timeout: Duration = waitDeadline) async -> ProcessResult {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while process.isRunning && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            signal(SIGKILL)
            while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        }
        // Everything the child wrote is read once both pipes are at end of file (a loaded machine can leave the
        // reader threads behind the exit: a fixed pause here lost the last lines now and then). A process the child
        // left behind may hold the pipes open; then what was read within 10 s is the answer.
        _ = await eventually(timeout: .seconds(10)) { self.lock.withLock { self.openPipes == 0 } }
        return ProcessResult(
            status: process.terminationStatus, standardOutput: standardOutput, standardError: standardError)
    }
}

/// Runs a program to completion (killed after `timeout`: a deadline for a hung program, not a measure of speed).
package func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil,
    timeout: Duration = waitDeadline
)
    async throws -> ProcessResult
{
    let child = try ChildProcess(executable, arguments, environment: environment, input: input)
    return await child.wait(timeout: timeout)
}
