import Glibc
import KeyboardLinkSupport

/// Reads a pipe with `read(2)`, retrying when a signal interrupts it.
///
/// Foundation's `FileHandle.availableData` and `readDataToEndOfFile()` stop the process with a fatal error when
/// `read` fails with `EINTR`, which happens when a child's `SIGCHLD` lands on the reading thread while it waits.
package enum PipeReading {
    /// The next bytes from `descriptor` (blocking until some arrive); empty at end of file or on an error.
    package static func next(from descriptor: Int32, upTo count: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let read = buffer.withUnsafeMutableBytes { raw in
                InterruptedCall.retry { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            guard read > 0 else { return [] }
            buffer.removeSubrange(read...)
            return buffer
        }
    }

    /// Everything left in `descriptor`, up to end of file.
    package static func toEnd(from descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        while case let chunk = next(from: descriptor), !chunk.isEmpty { bytes += chunk }
        return bytes
    }
}
