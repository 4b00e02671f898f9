import Glibc
import Testing

@testable import KeyboardLinkService

/// A datagram socket a test binds to a path or an abstract name, standing in for systemd's notification socket.
final class DatagramReceiver {
    let descriptor: Int32
    /// The value to put in `NOTIFY_SOCKET`.
    let notifySocket: String
    private let directory: String?

    /// Binds to `name` in the abstract namespace.
    init(abstractName name: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        notifySocket = "@" + name
        directory = nil
        try bind(pathBytes: [0] + Array(name.utf8))
    }

    /// Binds to a socket file in a new temporary directory.
    init() throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        let path = "/tmp/kblink-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try #require(mkdir(path, 0o700) == 0, "mkdir \(path) failed: errno \(errno)")
        directory = path
        notifySocket = path + "/notify"
        try bind(pathBytes: Array(notifySocket.utf8) + [0])
    }

    private func bind(pathBytes: [UInt8]) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in pathBytes.enumerated() { path[index] = byte }
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(offset + pathBytes.count))
            }
        }
        try #require(result == 0, "bind failed: errno \(errno)")
    }

    /// The next datagram's text, or nil when none arrives within `milliseconds` (a safety net, not a measurement).
    func receive(milliseconds: Int32 = 5_000) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit {
        close(descriptor)
        if let directory {
            unlink(notifySocket)
            rmdir(directory)
        }
    }
}
