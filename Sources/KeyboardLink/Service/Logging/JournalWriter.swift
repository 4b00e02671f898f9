import Glibc
import KeyboardLinkSupport

/// Sends entries to journald's native socket (`/run/systemd/journal/socket`, the protocol `sd_journal_send` speaks):
/// one datagram of `NAME=value` lines per entry, so each value is a field of its own that no text inside another
/// field can imitate. kblinkd sends its audit records this way when systemd runs it (docs/dbus-api.md,
/// "Authorization"); everything else goes to standard error, which systemd hands to the journal as text.
package struct JournalWriter: Sendable {
    /// journald's socket for native entries.
    package static let defaultSocket = "/run/systemd/journal/socket"

    /// Where entries go.
    package let socketPath: String

    package init(socketPath: String = Self.defaultSocket) {
        self.socketPath = socketPath
    }

    /// The datagram of one entry: `NAME=value\n` per field. A name is A-Z, 0-9 and `_`, not starting with `_`; a value
    /// keeps one line (newlines and other controls are escaped), so the simple form of the protocol carries it.
    /// - Precondition: every name is valid (they are kblinkd's constants).
    package static func datagram(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            precondition(isValidFieldName(name), "\(name) is not a journal field name")
            bytes += Array(name.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes += Array(value.escapedForLog.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// Whether `name` is a field name journald accepts from a client.
    package static func isValidFieldName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, first != UInt8(ascii: "_"), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
            && !(0x30...0x39).contains(first)
    }

    /// Sends one entry; false when it could not be sent (then the caller writes its text instead).
    @discardableResult
    package func send(_ fields: [(name: String, value: String)]) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path)
            buffer[path.count] = 0
        }
        let datagram = Self.datagram(fields)
        let sent = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(
                        descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0,
                        socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        return sent == datagram.count
    }
}
