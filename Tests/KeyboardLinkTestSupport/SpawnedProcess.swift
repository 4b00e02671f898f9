import Foundation
import Glibc
import KeyboardLinkSupport

/// A child process started with `posix_spawn`, with the part of `Foundation.Process`'s interface the tests use.
///
/// Not `Foundation.Process`: in the toolchain's Foundation (Swift 6.3.1), `Process.run()` scans `/proc/self/fd`
/// copying 256 bytes of every directory entry, reads past glibc's buffer and crashes the whole test process now and
/// then (swift-corelibs-foundation #5472, fixed after 6.3.1). Here the child closes every descriptor above 2 with
/// `posix_spawn_file_actions_addclosefrom_np`, without a scan.
package final class SpawnedProcess: @unchecked Sendable {
    // Why @unchecked Sendable is safe: every stored property below is read and written only under `lock`.
    private let lock = NSLock()
    private var setupExecutable: URL?
    private var setupArguments: [String] = []
    private var setupEnvironment: [String: String]?
    private var streams: [Any?] = [nil, nil, nil]
    private var pid: pid_t = 0
    private var status: Int32?

    package init() {}

    /// The program to run.
    package var executableURL: URL? {
        get { lock.withLock { setupExecutable } }
        set { lock.withLock { setupExecutable = newValue } }
    }

    /// Its arguments, without the program name.
    package var arguments: [String]? {
        get { lock.withLock { setupArguments } }
        set { lock.withLock { setupArguments = newValue ?? [] } }
    }

    /// The child's whole environment; nil: this process's.
    package var environment: [String: String]? {
        get { lock.withLock { setupEnvironment } }
        set { lock.withLock { setupEnvironment = newValue } }
    }

    /// A `Pipe` (the child reads its reading end) or a `FileHandle`.
    package var standardInput: Any? {
        get { lock.withLock { streams[0] } }
        set { lock.withLock { streams[0] = newValue } }
    }

    /// A `Pipe` (the child writes its writing end) or a `FileHandle`.
    package var standardOutput: Any? {
        get { lock.withLock { streams[1] } }
        set { lock.withLock { streams[1] = newValue } }
    }

    /// A `Pipe` (the child writes its writing end) or a `FileHandle`.
    package var standardError: Any? {
        get { lock.withLock { streams[2] } }
        set { lock.withLock { streams[2] = newValue } }
    }

    /// Starts the child. The parent's copies of the pipe ends the child uses are closed, as `Foundation.Process`
    /// does, so that readers see end of file when the child exits.
    package func run() throws {
        let (executable, arguments, environment, input, output, error) = lock.withLock {
            (setupExecutable?.path ?? "", setupArguments, setupEnvironment, streams[0], streams[1], streams[2])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(input, STDIN_FILENO), (output, STDOUT_FILENO), (error, STDERR_FILENO)] {
            if let descriptor = Self.descriptor(of: stream, forWriting: target != STDIN_FILENO) {
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        guard addCloseFrom(&actions, 3) == 0 else {
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(EINVAL), userInfo: nil)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result: Int32
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in envp { free(pointer) } }
            result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        } else {
            result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        }
        guard result == 0 else {
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(result),
                userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(executable): \(String(cString: strerror(result)))"]
            )
        }
        lock.withLock { self.pid = pid }
        // Reaped at once by a thread of its own, as Foundation.Process does: a zombie left for later would be seen
        // by process-wide waiters (Swift Testing's exit tests wait with waitid(P_ALL) and spin on foreign zombies).
        let child = pid
        Thread.detachNewThread { [self] in
            var code: Int32 = 0
            let reaped = InterruptedCall.retry { waitpid(child, &code, 0) }
            lock.withLock { status = reaped == child ? code : 0x7F00 }
        }
        for (stream, isInput) in [(input, true), (output, false), (error, false)] {
            guard let pipe = stream as? Pipe else { continue }
            try? (isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
    }

    private static func descriptor(of stream: Any?, forWriting: Bool) -> Int32? {
        if let pipe = stream as? Pipe {
            return forWriting ? pipe.fileHandleForWriting.fileDescriptor : pipe.fileHandleForReading.fileDescriptor
        }
        if let handle = stream as? FileHandle { return handle.fileDescriptor }
        return nil
    }

    /// The child's process id (0 before `run()`).
    package var processIdentifier: Int32 { lock.withLock { pid } }

    /// Whether the child has not exited yet.
    package var isRunning: Bool { lock.withLock { pid > 0 && status == nil } }

    /// Blocks until the child exits.
    package func waitUntilExit() {
        while isRunning { usleep(2_000) }
    }

    /// The exit code, or the number of the signal that ended the child (as `Foundation.Process` reports it).
    package var terminationStatus: Int32 {
        let code = lock.withLock { status } ?? 0
        let signal = code & 0x7F
        return signal == 0 ? (code >> 8) & 0xFF : signal
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module does not import.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
