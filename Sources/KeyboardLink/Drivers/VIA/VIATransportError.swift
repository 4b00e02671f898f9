import Glibc

/// Why a VIA transport could not move a report.
package enum VIATransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer closed the link or the device went away.
    case disconnected
    /// No report arrived within `milliseconds`.
    case timedOut(milliseconds: Int)
    /// The transport was closed by its owner.
    case closed
    /// A system call failed with `errno`.
    case systemCall(name: String, path: String, errno: Int32)
    /// A read or write moved `count` bytes where `expected` were due.
    case unexpectedLength(count: Int, expected: Int)

    package var description: String {
        switch self {
        case .disconnected:
            return "the keyboard's VIA link closed; reconnect the keyboard and retry"
        case .timedOut(let milliseconds):
            return "the keyboard did not answer within \(milliseconds) ms; is VIA enabled in its firmware?"
        case .closed:
            return "the VIA transport was already closed"
        case let .systemCall(name, path, code):
            let reason = String(cString: strerror(code))
            if code == EACCES || code == EPERM {
                return "\(name) \(path): \(reason); give your user access to the keyboard's hidraw node "
                    + "(a udev rule with TAG+=\"uaccess\")"
            }
            return "\(name) \(path): \(reason)"
        case let .unexpectedLength(count, expected):
            return "moved \(count) bytes of a \(expected)-byte VIA report; is this the raw HID interface?"
        }
    }
}
