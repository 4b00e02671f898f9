import Dispatch
import Foundation
import KeyboardLinkTestSupport
import Synchronization

/// Runs the built `kblink` binary and reads its output to the end of both pipes before returning, so that long
/// outputs (keyboard pictures, profiles) are compared whole, however loaded the machine is.
enum KeymapCommandRunner {
    /// Runs `kblink ARGUMENTS --bus <the harness's bus>` in this process.
    static func run(_ harness: DaemonHarness, _ arguments: [String]) async throws -> ProcessResult {
        try await harness.kblink(arguments)
    }

    /// Runs the `kblink` binary with `ARGUMENTS` as given, through `launcher` when one is given (such as `setpriv`
    /// with another user: `launcher + [kblink] + arguments`); kills it after `timeout` (a deadline for a hung
    /// command: a push beside the whole suite on a hogged machine took over 30 s).
    static func run(
        _ arguments: [String], launcher: [String] = [], timeout: DispatchTimeInterval = .seconds(120)
    ) async throws -> ProcessResult {
        let process = SpawnedProcess()
        let kblink = DaemonHarness.binary("kblink")
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [kblink] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: kblink)
            process.arguments = arguments
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let identifier = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { kill(identifier, SIGKILL) }
        return await withCheckedContinuation { continuation in
            let standardError = Mutex(Data())
            // Own threads, not the global queue: blocking reads there starve it on a two-core machine.
            let group = DispatchGroup()
            group.enter()
            Thread {
                let data = Data(PipeReading.toEnd(from: errors.fileHandleForReading.fileDescriptor))
                standardError.withLock { $0 = data }
                group.leave()
            }.start()
            Thread {
                let standardOutput = Data(PipeReading.toEnd(from: output.fileHandleForReading.fileDescriptor))
                group.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: ProcessResult(
                        status: process.terminationStatus,
                        standardOutput: String(decoding: standardOutput, as: UTF8.self),
                        standardError: String(decoding: standardError.withLock { $0 }, as: UTF8.self)))
            }.start()
        }
    }
}
