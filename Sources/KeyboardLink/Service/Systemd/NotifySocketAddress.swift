import Glibc

/// The address in `$NOTIFY_SOCKET`: a filesystem path, or an abstract name when it starts with `@`.
struct NotifySocketAddress: Equatable, Sendable, CustomStringConvertible {
    /// Whether the name lives in the filesystem or in the abstract namespace.
    enum Namespace: Equatable, Sendable {
        case filesystem
        case abstract
    }

    let namespace: Namespace
    /// The path, or the abstract name without its leading `@`/NUL.
    let name: [UInt8]

    /// Room in `sockaddr_un.sun_path` (108 bytes on Linux).
    static let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// Parses `$NOTIFY_SOCKET`.
    /// - Throws: ``SystemdNotifierError/invalidSocketAddress(_:reason:)`` for a relative path, a name that does
    ///   not fit, or a NUL byte.
    init(parsing value: String) throws(SystemdNotifierError) {
        let bytes = Array(value.utf8)
        if bytes.contains(0) {
            throw .invalidSocketAddress(value, reason: "it contains a NUL byte")
        }
        switch bytes.first {
        case UInt8(ascii: "/"):
            // A path needs its terminating NUL inside sun_path.
            guard bytes.count < Self.capacity else {
                throw .invalidSocketAddress(value, reason: "the path is longer than \(Self.capacity - 1) bytes")
            }
            namespace = .filesystem
            name = bytes
        case UInt8(ascii: "@"):
            // The leading NUL that marks an abstract name takes the place of the '@'.
            guard bytes.count > 1 else {
                throw .invalidSocketAddress(value, reason: "the abstract socket name after '@' is empty")
            }
            guard bytes.count <= Self.capacity else {
                throw .invalidSocketAddress(
                    value, reason: "the abstract name is longer than \(Self.capacity - 1) bytes")
            }
            namespace = .abstract
            name = Array(bytes.dropFirst())
        default:
            throw .invalidSocketAddress(value, reason: "it must be an absolute path or start with '@'")
        }
    }

    var description: String {
        let text = String(decoding: name, as: UTF8.self)
        return namespace == .abstract ? "@" + text : text
    }

    /// Calls `body` with a `sockaddr_un` for this address and its exact length.
    ///
    /// An abstract name is not NUL-terminated: every byte up to the length is part of it, so the length must be
    /// exactly `offsetof(sun_path) + 1 + name.count` or the peer's name would not match.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            switch namespace {
            case .filesystem:
                for (index, byte) in name.enumerated() { path[index] = byte }
                path[name.count] = 0
            case .abstract:
                path[0] = 0
                for (index, byte) in name.enumerated() { path[index + 1] = byte }
            }
        }
        // One NUL either way: the terminator after a path, the marker before an abstract name.
        let length = socklen_t(pathOffset + name.count + 1)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                body(generic, length)
            }
        }
    }
}
