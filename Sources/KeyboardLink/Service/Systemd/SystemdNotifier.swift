import Glibc
import KeyboardLinkSupport

/// Tells systemd about kblinkd's state through `$NOTIFY_SOCKET`, without libsystemd.
///
/// Each notification is one `AF_UNIX`/`SOCK_DGRAM` datagram of newline-separated `KEY=value` lines, as
/// `sd_notify(3)` describes. With no `NOTIFY_SOCKET` (the daemon was not started by systemd as `Type=notify`) every
/// call does nothing. The notifier holds no socket between calls, so it is a plain value any thread may use.
package struct SystemdNotifier: Sendable {
    /// The variable naming the socket systemd listens on.
    package static let socketVariable = "NOTIFY_SOCKET"
    /// The variable holding the watchdog timeout in microseconds.
    package static let watchdogMicrosecondsVariable = "WATCHDOG_USEC"
    /// The variable naming the process the watchdog applies to.
    package static let watchdogProcessVariable = "WATCHDOG_PID"

    /// nil when notifications are off; a failure when `NOTIFY_SOCKET` was set but unusable, reported on send.
    private let address: Result<NotifySocketAddress, SystemdNotifierError>?

    /// The watchdog timeout systemd enforces (`WatchdogSec=`), or nil when there is none for this process.
    ///
    /// nil when `WATCHDOG_USEC` is unset, not a positive number, or `WATCHDOG_PID` names another process.
    package let watchdogInterval: Duration?

    /// Reads the notification settings from `environment`.
    /// - Parameters:
    ///   - environment: the process environment, or a test's own dictionary.
    ///   - processID: this process, compared with `WATCHDOG_PID`.
    package init(environment: [String: String], processID: Int32 = getpid()) {
        if let value = environment[Self.socketVariable], !value.isEmpty {
            address = Result { () throws(SystemdNotifierError) in try NotifySocketAddress(parsing: value) }
        } else {
            address = nil
        }
        watchdogInterval = Self.watchdogInterval(in: environment, processID: processID)
    }

    /// A notifier for this process's environment.
    package static func fromProcessEnvironment() -> SystemdNotifier {
        // getenv of the three variables read, rather than a copy of the whole environment.
        var environment: [String: String] = [:]
        for name in [socketVariable, watchdogMicrosecondsVariable, watchdogProcessVariable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return SystemdNotifier(environment: environment)
    }

    /// Removes the notification variables from this process's environment so child processes (such as the
    /// `dbus-daemon` that kblinkd-demo starts) do not notify systemd in kblinkd's name.
    ///
    /// Call it once at start-up, after ``fromProcessEnvironment()`` and before other threads run: `unsetenv` is
    /// not thread-safe.
    package static func removeVariablesFromProcessEnvironment() {
        unsetenv(socketVariable)
        unsetenv(watchdogMicrosecondsVariable)
        unsetenv(watchdogProcessVariable)
    }

    /// Whether `NOTIFY_SOCKET` was set; when false every send does nothing.
    package var isEnabled: Bool { address != nil }

    /// How often to send `WATCHDOG=1`: half the watchdog interval, as `sd_watchdog_enabled(3)` recommends.
    package var watchdogPingInterval: Duration? { watchdogInterval.map { $0 / 2 } }

    /// Sends `notifications` in one datagram.
    /// - Throws: ``SystemdNotifierError`` when `NOTIFY_SOCKET` is unusable or the datagram cannot be sent.
    package func send(_ notifications: [SystemdNotification]) throws(SystemdNotifierError) {
        guard let address, !notifications.isEmpty else { return }
        let target = try address.get()
        let message = notifications.flatMap(\.assignments).joined(separator: "\n")
        try Self.sendDatagram(Array(message.utf8), to: target)
    }

    /// Sends `READY=1`, with an optional `STATUS=` in the same datagram.
    package func ready(status: String? = nil) throws(SystemdNotifierError) {
        try send([.ready] + (status.map { [.status($0)] } ?? []))
    }

    /// Sends `STATUS=text`.
    package func status(_ text: String) throws(SystemdNotifierError) {
        try send([.status(text)])
    }

    /// Sends `RELOADING=1` with the current `MONOTONIC_USEC=`; send ``ready(status:)`` once the reload is done.
    package func reloading(status: String? = nil) throws(SystemdNotifierError) {
        try send([.reloadingNow] + (status.map { [.status($0)] } ?? []))
    }

    /// Sends `STOPPING=1`, with an optional `STATUS=`.
    package func stopping(status: String? = nil) throws(SystemdNotifierError) {
        try send([.stopping] + (status.map { [.status($0)] } ?? []))
    }

    /// Sends `WATCHDOG=1`.
    package func watchdog() throws(SystemdNotifierError) {
        try send([.watchdog])
    }

    private static func watchdogInterval(in environment: [String: String], processID: Int32) -> Duration? {
        guard let text = environment[watchdogMicrosecondsVariable],
            let microseconds = UInt64(text), microseconds > 0
        else { return nil }
        // The variables are inherited; a child that is not the watched process must not ping on its behalf.
        if let owner = environment[watchdogProcessVariable] {
            guard let pid = Int32(owner), pid == processID else { return nil }
        }
        return .microseconds(Int64(clamping: microseconds))
    }

    private static func sendDatagram(_ bytes: [UInt8], to address: NotifySocketAddress) throws(SystemdNotifierError) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socketFailed(errno: errno) }
        defer { close(descriptor) }
        let failure: Int32? = address.withSocketAddress { socketAddress, length in
            bytes.withUnsafeBytes { buffer in
                let sent = InterruptedCall.retry {
                    sendto(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
                return sent >= 0 ? nil : errno
            }
        }
        if let failure {
            throw .sendFailed(address: address.description, errno: failure)
        }
    }
}
