import Glibc

/// A program run by the benchmark (kblinkd, kblink, bluetoothctl, python-dbusmock), started with `posix_spawn`.
///
/// Every call blocks the calling thread (run it through `blocking`). The child starts with an empty signal mask and
/// default SIGTERM/SIGINT/SIGPIPE actions, since a child of a Swift concurrency thread would otherwise inherit a
/// mask that blocks SIGTERM.
struct ChildProcess: Sendable {
    /// The child's process id.
    let pid: pid_t
    /// The read end of the child's standard output when it was captured, else -1.
    let outputDescriptor: Int32

    /// How a finished child ended.
    struct Finished: Sendable {
        /// Its standard output (empty unless captured).
        var output: [UInt8]
        /// The exit status (128 + the signal number when a signal ended it).
        var status: Int32
        /// From just before `posix_spawn` to `wait4` returning.
        var wallSeconds: Double
        /// User plus system CPU time of the child, from `wait4`.
        var cpuSeconds: Double

        var outputText: String { String(decoding: output, as: UTF8.self) }
    }

    /// Starts `executable` with `arguments` (without argv[0]) and `environment` ("NAME=value" entries).
    /// - Parameters:
    ///   - captureOutput: pipe standard output back to us; otherwise it goes to /dev/null.
    ///   - errorPath: where standard error goes (/dev/null by default).
    static func start(
        _ executable: String, _ arguments: [String], environment: [String], captureOutput: Bool,
        errorPath: String = "/dev/null"
    ) throws -> ChildProcess {
        guard access(executable, X_OK) == 0 else { throw BenchError("\(executable) is missing or not executable") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var readEnd: Int32 = -1
        var writeEnd: Int32 = -1
        if captureOutput {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw BenchError("pipe failed: errno \(errno)") }
            (readEnd, writeEnd) = (ends[0], ends[1])
            // Only the child's descriptor 1 should stay open in the child (and in no other child).
            _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) }
        envp.append(nil)
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        if writeEnd >= 0 { close(writeEnd) }
        guard result == 0 else {
            if readEnd >= 0 { close(readEnd) }
            throw BenchError("cannot start \(executable): error \(result)")
        }
        return ChildProcess(pid: pid, outputDescriptor: readEnd)
    }

    /// Runs a program to its end, reading its output as it comes, and times it from spawn to exit.
    /// - Parameter timeoutSeconds: the child is killed after this long (and the run fails).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String], timeoutSeconds: Double = 30
    ) throws -> Finished {
        let clock = ContinuousClock()
        let began = clock.now
        let child = try start(executable, arguments, environment: environment, captureOutput: true)
        let deadline = began.advanced(by: .milliseconds(Int(timeoutSeconds * 1000)))
        let output = child.readOutputToEnd(deadline: deadline)
        guard let output else {
            child.kill(SIGKILL)
            _ = child.wait()
            throw BenchError("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeoutSeconds) s")
        }
        var finished = child.wait()
        finished.wallSeconds = (clock.now - began).seconds
        finished.output = output
        return finished
    }

    /// Reads standard output until end of file; nil when `deadline` passes first. Closes the descriptor.
    func readOutputToEnd(deadline: ContinuousClock.Instant) -> [UInt8]? {
        defer { close(outputDescriptor) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let clock = ContinuousClock()
        while true {
            let remaining = deadline - clock.now
            guard remaining > .zero else { return nil }
            var poller = pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, remaining.seconds * 1000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return output }
            output.append(contentsOf: buffer[..<count])
        }
    }

    /// Sends a signal.
    func kill(_ number: Int32) {
        _ = Glibc.kill(pid, number)
    }

    /// Waits for the child's exit (the wall time is left at zero: `run` measures it).
    func wait() -> Finished {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return Finished(output: [], status: code, wallSeconds: 0, cpuSeconds: cpu)
    }

    /// Whether the child has exited (it is then reaped; asking again after that still answers true).
    func hasExited() -> Bool {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == pid || (result == -1 && errno == ECHILD)
    }

    /// SIGTERM, then SIGKILL after `graceSeconds`; reaps the child.
    func stop(graceSeconds: Double = 5) {
        // A child already reaped must not be signalled: its pid may belong to another process by now.
        guard !hasExited() else { return }
        kill(SIGTERM)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(graceSeconds * 1000)))
        while clock.now < deadline {
            if hasExited() { return }
            usleep(10_000)
        }
        kill(SIGKILL)
        _ = wait()
    }

    /// This process's environment with `overrides` ("NAME=value") replacing or adding entries and `removing` names
    /// dropped.
    static func environment(_ overrides: [String], removing: [String] = []) -> [String] {
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            entries.append(String(cString: entry))
            index += 1
        }
        let replaced = Set(overrides.map { String($0.prefix { $0 != "=" }) } + removing)
        return entries.filter { !replaced.contains(String($0.prefix { $0 != "=" })) } + overrides
    }
}
