import Dispatch
import KeyboardLinkDBus

#if canImport(Glibc)
    import Glibc
    import KeyboardLinkSupport
#endif

/// A private `dbus-daemon` child process on a fresh address: the embedded default for demos and the
/// bus every integration test runs on.
///
/// The child starts with an empty signal mask (a child of a Swift concurrency thread would otherwise
/// inherit a mask that blocks SIGTERM) and is stopped with SIGKILL by pid, which cannot be ignored.
package final class PrivateBusDaemon: Sendable {
    /// The address the daemon listens on (`unix:path=...,guid=...`).
    package let address: String
    /// The child's process id.
    package let pid: pid_t

    /// The configuration used when none is given: a session-like bus listening in a fresh temporary
    /// directory, open to every local user (the daemon runs as whoever started it).
    package static let defaultConfiguration = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
            <allow user="*"/>
          </policy>
          <limit name="max_replies_per_connection">50000</limit>
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_message_size">134217728</limit>
        </busconfig>
        """

    /// Starts `dbus-daemon --nofork --print-address=1` with a configuration file.
    /// - Parameters:
    ///   - configurationFile: a bus configuration; nil writes ``defaultConfiguration`` to a temporary file.
    ///   - executable: the daemon to run.
    /// - Throws: ``DBusError`` when the daemon cannot be started or prints no address within 10 s.
    package init(configurationFile: String? = nil, executable: String = "/usr/bin/dbus-daemon") throws {
        guard access(executable, X_OK) == 0 else {
            throw DBusError.failed(
                "\(executable) is missing: install it with 'apt-get install dbus-daemon'")
        }
        let configPath = try configurationFile ?? Self.writeTemporaryConfiguration()
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw DBusError.failed("pipe failed: errno \(errno)") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        // The daemon's own warnings (fd limits when not root, ...) would drown test output.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process goes with it: a pipe another thread has open at this moment would otherwise
        // stay open in the daemon for its whole life, and that pipe's reader would never see its end.
        guard addCloseFrom(&actions, 3) == 0 else {
            close(readEnd)
            close(writeEnd)
            throw DBusError.failed("posix_spawn_file_actions_addclosefrom_np failed")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGTERM)
        sigaddset(&defaultSignals, SIGINT)
        sigaddset(&defaultSignals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = [executable, "--config-file=\(configPath)", "--nofork", "--print-address=1"]
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { for pointer in cArguments { free(pointer) } }
        var childPID: pid_t = 0
        let spawned = posix_spawn(&childPID, executable, &actions, &attributes, cArguments, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw DBusError.failed("cannot start \(executable): error \(spawned)")
        }
        pid = childPID
        defer { close(readEnd) }
        guard let line = Self.readLine(from: readEnd, timeoutMilliseconds: 10_000), !line.isEmpty else {
            kill(childPID, SIGKILL)
            var status: Int32 = 0
            waitpid(childPID, &status, 0)
            throw DBusError.failed("\(executable) printed no address (configuration \(configPath))")
        }
        address = line
    }

    /// Stops the daemon with SIGKILL and reaps it.
    package func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = InterruptedCall.retry { waitpid(pid, &status, 0) }
    }

    deinit {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            stop()
        }
    }

    private static func writeTemporaryConfiguration() throws -> String {
        var template = Array("/tmp/kblink-bus-XXXXXX.conf".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        guard fd >= 0 else { throw DBusError.failed("cannot create a temporary bus configuration: errno \(errno)") }
        defer { close(fd) }
        let bytes = Array(defaultConfiguration.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { chunk in
                InterruptedCall.retry { write(fd, chunk.baseAddress, chunk.count) }
            }
            if result < 0 {
                throw DBusError.failed("cannot write the bus configuration: errno \(errno)")
            }
            written += result
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private static func readLine(from fd: Int32, timeoutMilliseconds: Int32) -> String? {
        var bytes: [UInt8] = []
        var pollDescriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while bytes.last != 0x0A {
            let ready = InterruptedCall.retry { poll(&pollDescriptor, 1, timeoutMilliseconds) }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let count = InterruptedCall.retry { read(fd, &byte, 1) }
            guard count == 1 else { break }
            bytes.append(byte)
        }
        if bytes.last == 0x0A { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module does not import.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
