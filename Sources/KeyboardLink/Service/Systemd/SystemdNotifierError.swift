import Glibc

/// Why a notification could not reach systemd.
package enum SystemdNotifierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `$NOTIFY_SOCKET` holds something that is not an absolute path or an `@abstract` name that fits a socket
    /// address.
    case invalidSocketAddress(String, reason: String)
    /// `socket(AF_UNIX, SOCK_DGRAM)` failed with this `errno`.
    case socketFailed(errno: Int32)
    /// `sendto` failed with this `errno`.
    case sendFailed(address: String, errno: Int32)

    package var description: String {
        switch self {
        case .invalidSocketAddress(let value, let reason):
            "NOTIFY_SOCKET=\"\(value)\" is not usable: \(reason); systemd sets it for Type=notify services"
        case .socketFailed(let code):
            "cannot create a notification socket: \(Self.text(code))"
        case .sendFailed(let address, let code):
            "cannot notify systemd at \(address): \(Self.text(code))"
        }
    }

    private static func text(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: message)) (errno \(code))"
    }
}
