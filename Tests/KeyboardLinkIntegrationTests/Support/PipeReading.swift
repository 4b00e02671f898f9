import Glibc

/// Reads a pipe with `read(2)`, retrying when a signal interrupts it.
///
/// Foundation's `FileHandle.availableData` and `readDataToEndOfFile()` stop the process with a fatal error when
/// `read` fails with `EINTR`, which happens when a child's `SIGCHLD` lands on the reading thread while it waits.
enum PipeReading {
    /// The next bytes from `descriptor` (blocking until some arrive); empty at end of file or on an error.
    static func next(from descriptor: Int32, upTo count: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return [] }
            buffer.removeSubrange(read...)
            return buffer
        }
    }

    /// Everything left in `descriptor`, up to end of file.
    static func toEnd(from descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        while case let chunk = next(from: descriptor), !chunk.isEmpty { bytes += chunk }
        return bytes
    }
}
