import Glibc

/// What `/proc` says about a running process.
package enum UnixProcess {
    /// The command name of process `pid` (`/proc/PID/comm`: at most 15 bytes, what `ps -o comm` shows), with
    /// control characters replaced by `?` so it is safe in a log line; nil when the process is gone or hidden.
    package static func commandName(of pid: UInt32, procRoot: String = "/proc") -> String? {
        let descriptor = open("\(procRoot)/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { raw in
            InterruptedCall.retry { read(descriptor, raw.baseAddress, raw.count) }
        }
        guard count > 0 else { return nil }
        var name = bytes[..<count]
        if name.last == UInt8(ascii: "\n") { name = name.dropLast() }
        let text = String(decoding: name, as: UTF8.self)
        return String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
