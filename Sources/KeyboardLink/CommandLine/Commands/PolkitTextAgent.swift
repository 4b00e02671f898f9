import KeyboardLinkSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// polkit's text agent, `pkttyagent`, started as systemctl starts it: so that a person at a terminal without a
/// desktop's polkit agent (a text console, SSH) is asked for the password an action needs, instead of being refused.
///
/// `--fallback` makes it step aside when the session has an agent already (a desktop's dialog wins). It is started
/// once, before the first call, only for the system bus, only for a user other than root (whom kblinkd allows
/// without asking) and only when standard input is a terminal and the process has a controlling one; it is stopped
/// when kblink exits.
enum PolkitTextAgent {
    /// Where Debian's polkit installs it.
    static let path = "/usr/bin/pkttyagent"
    /// How long to wait for the agent to register before calling anyway.
    static let registrationTimeoutMilliseconds: Int32 = 3_000

    private static let agent = Atomic<Int32>(0)

    /// Starts the agent if it is installed and not running yet, and waits until it has registered (it closes the
    /// notify descriptor then) or the timeout passed. Does nothing when it cannot start.
    static func start() {
        // Root is allowed without asking, and the agent needs a controlling terminal to ask on.
        guard getuid() != 0, agent.load(ordering: .acquiring) == 0, access(path, X_OK) == 0, hasControllingTerminal
        else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        let (notifyRead, notifyWrite) = (ends[0], ends[1])
        // Only the write end reaches the agent.
        _ = fcntl(notifyRead, F_SETFD, FD_CLOEXEC)
        defer { close(notifyRead) }
        let arguments = ["pkttyagent", "--notify-fd", String(notifyWrite), "--fallback"]
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            posix_spawn(&pid, path, nil, nil, argv, environ)
        }
        close(notifyWrite)
        guard spawned == 0, pid > 0 else { return }
        agent.store(pid, ordering: .releasing)
        atexit { PolkitTextAgent.stop() }
        var ready = pollfd(fd: notifyRead, events: Int16(POLLIN | POLLHUP), revents: 0)
        _ = InterruptedCall.retry { poll(&ready, 1, registrationTimeoutMilliseconds) }
    }

    /// Whether the process has a controlling terminal (`/dev/tty` opens): standard input may be a terminal that is
    /// not this process's controlling one (a serial console, some containers), where the agent cannot ask.
    static var hasControllingTerminal: Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Stops the agent, if it was started.
    static func stop() {
        let pid = agent.exchange(0, ordering: .acquiringAndReleasing)
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// Runs `body` with `strings` as a NULL-terminated C array.
    static func withCStrings<T>(
        _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T
    ) -> T {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        return body(copies + [nil])
    }
}
