import Glibc
import KeyboardLinkSupport

/// Where a ``Logger`` writes its finished text: standard error in the daemon, a collector in tests.
///
/// The sink receives one message at a time, already prefixed and ending in a newline. The logger calls it while
/// holding its lock, so a sink sees messages one after another and must not log through the same logger.
package struct LogSink: Sendable {
    let write: @Sendable (String) -> Void

    /// Creates a sink from a function that receives each finished message.
    package init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Writes to file descriptor 2 with `write(2)`. Swift 6 rejects the global `stderr` as shared mutable state,
    /// and one `write` per message keeps lines from different threads apart.
    package static var standardError: LogSink { fileDescriptor(STDERR_FILENO) }

    /// Writes to an open file descriptor, retrying after `EINTR` and partial writes. Errors are dropped: a logger
    /// has nowhere left to report them.
    package static func fileDescriptor(_ descriptor: Int32) -> LogSink {
        LogSink { text in FileDescriptorOutput.writeAll(Array(text.utf8), to: descriptor) }
    }
}
