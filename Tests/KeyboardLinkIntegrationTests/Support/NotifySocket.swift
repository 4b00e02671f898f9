import Glibc
import KeyboardLinkTestSupport
import Synchronization
import Testing

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`, to watch what a kblinkd process announces.
final class NotifySocket: @unchecked Sendable {
    // Why @unchecked Sendable is safe: `descriptor` and `path` are immutable; reads on the socket are
    // system calls, which are thread-safe.
    let descriptor: Int32
    let path: String
    /// Every datagram received so far, for the failure message.
    private let received = Mutex<[String]>([])

    init() throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        path = "/tmp/kblink-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(result == 0, "bind \(path): errno \(errno)")
    }

    /// Datagrams until one contains `text` (within `timeout`: generous, since a debug kblinkd starting among hundreds
    /// of parallel tests on a busy machine can take many seconds); returns that one, or records an issue naming every
    /// datagram received and returns nil.
    ///
    /// The socket is read once more after the deadline: a test task that woke late (the cooperative pool busy) still
    /// sees a datagram that arrived in time.
    func waitFor(
        _ text: String, timeout: Duration = waitDeadline, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var looks = 0
        var lastLook = clock.now
        var lastState = "not read yet"
        repeat {
            looks += 1
            lastLook = clock.now
            switch readAvailable(containing: text) {
            case .found(let message): return message
            case .state(let state): lastState = state
            }
            try? await Task.sleep(for: .milliseconds(20))
        } while clock.now < deadline
        if case .found(let message) = readAvailable(containing: text) { return message }
        let seen = received.withLock { $0 }
        let silence = clock.now - lastLook
        Issue.record(
            Comment(
                rawValue: "no \(text) within \(timeout) on \(path); received \(seen); looked \(looks) times, the last "
                    + "\(silence) before giving up: \(lastState)"),
            sourceLocation: sourceLocation)
        return nil
    }

    private enum ReadOutcome {
        case found(String)
        case state(String)
    }

    /// Reads every datagram waiting, without blocking; the first that contains `text`, or what the socket showed.
    private func readAvailable(containing text: String) -> ReadOutcome {
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 0)
            guard ready == 1 else { return .state(ready == 0 ? "nothing waiting" : "poll failed: errno \(errno)") }
            guard poller.revents & Int16(POLLIN) != 0 else {
                return .state("poll answered revents \(poller.revents) (descriptor \(descriptor) closed or broken)")
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            guard count > 0 else { return .state("recv answered \(count), errno \(errno)") }
            let message = String(decoding: buffer[..<count], as: UTF8.self)
            received.withLock { $0.append(message) }
            if message.contains(text) { return .found(message) }
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
