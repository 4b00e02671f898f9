import KeyboardLinkSupport
import Synchronization

/// The daemon's logger: one line per message line on standard error, each prefixed with its journald priority
/// (`<3>` error ... `<7>` debug) so `journalctl -p` filters kblinkd's output when it runs under systemd.
///
/// Thread-safe: the threshold and the output sit behind locks, so any thread or task may log and a SIGHUP
/// reload may change the threshold while others log.
package final class Logger: Sendable {
    private let currentThreshold: Mutex<LogLevel>
    // Serialises writes so the lines of one multi-line message stay together.
    private let output: Mutex<LogSink>

    /// Creates a logger.
    /// - Parameters:
    ///   - threshold: the least important level still written (`info` writes error ... info, not debug).
    ///   - sink: where lines go; standard error unless a test collects them.
    package init(threshold: LogLevel = .info, sink: LogSink = .standardError) {
        currentThreshold = Mutex(threshold)
        output = Mutex(sink)
    }

    /// The least important level still written; changing it takes effect for the next message.
    package var threshold: LogLevel {
        get { currentThreshold.withLock { $0 } }
        set { currentThreshold.withLock { $0 = newValue } }
    }

    /// Whether a message of `level` would be written, to skip building expensive messages.
    package func isEnabled(_ level: LogLevel) -> Bool {
        level.passes(threshold: threshold)
    }

    /// Writes `message` at `level` if the threshold lets it through. The message is only built when it passes.
    package func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        // Built outside the lock: a message that itself logs must not deadlock.
        let text = Self.format(message(), level: level)
        output.withLock { sink in sink.write(text) }
    }

    /// Logs at `error` (`<3>`).
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// Logs at `warning` (`<4>`).
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at `notice` (`<5>`).
    package func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at `info` (`<6>`).
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at `debug` (`<7>`).
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

    /// One journal entry: the level's `<N>`, the message on one line and a newline.
    ///
    /// Log lines quote what Bluetooth devices chose (names, aliases, firmware strings, error texts) and every device
    /// in radio range chooses its own: a newline in a name would start a line of its own, which journald reads as
    /// another entry, at the priority the name claims. So every control character (newlines too), DEL, C1 and
    /// the bidi and zero-width characters are escaped (`String.escapedForLog`); one trailing newline is dropped.
    static func format(_ message: String, level: LogLevel) -> String {
        var text = message
        if text.hasSuffix("\r\n") {
            text.removeLast()
        } else if text.hasSuffix("\n") {
            text.removeLast()
        }
        return level.journalPrefix + text.escapedForLog + "\n"
    }
}
