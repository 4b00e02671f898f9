import Glibc

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`: the benchmark gives its path to kblinkd and
/// times the arrival of `READY=1`.
final class NotifyListener: Sendable {
    let descriptor: Int32
    /// The socket's path, the value of `NOTIFY_SOCKET`.
    let path: String

    init() throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket(AF_UNIX, SOCK_DGRAM) failed: errno \(errno)") }
        path = "/tmp/kblink-bench-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() where index < raw.count { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw BenchError("bind \(path): errno \(errno)")
        }
    }

    /// Blocks until a datagram with the line `line` arrives or `deadline` passes; returns when it arrived and the
    /// datagram's lines.
    /// - Parameter stillRunning: checked while waiting; when it turns false the wait ends with nil.
    func wait(
        for line: String, until deadline: ContinuousClock.Instant, stillRunning: () -> Bool
    ) -> (arrived: ContinuousClock.Instant, lines: [String])? {
        let clock = ContinuousClock()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while clock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                let arrived = clock.now
                guard count > 0 else { continue }
                let lines = buffer[..<count].split(separator: UInt8(ascii: "\n")).map {
                    String(decoding: $0, as: UTF8.self)
                }
                if lines.contains(line) { return (arrived, lines) }
                continue
            }
            if !stillRunning() { return nil }
        }
        return nil
    }

    /// Drops datagrams already queued (from an earlier daemon).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
