import Glibc
import KeyboardLinkSupport

/// The Glibc calls the VIA transports and hidraw discovery make, in one place: each retries EINTR and turns
/// -1 into a thrown `VIATransportError.systemCall` naming the call and the path.
package enum VIAPosix {
    /// `open(2)` with `O_CLOEXEC` added.
    static func open(_ path: String, flags: Int32) throws(VIATransportError) -> Int32 {
        let descriptor = InterruptedCall.retry { Glibc.open(path, flags | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .systemCall(name: "open", path: path, errno: errno) }
        return descriptor
    }

    /// The device number of the character device open on `descriptor` (`fstat(2)`'s `st_rdev`); nil when it is
    /// not a character device.
    static func characterDevice(_ descriptor: Int32, path: String) throws(VIATransportError)
        -> HIDRawNode.DeviceNumber?
    {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .systemCall(name: "fstat", path: path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFCHR else { return nil }
        return HIDRawNode.DeviceNumber(deviceID: UInt64(status.st_rdev))
    }

    /// `socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)`: two connected ends that keep message boundaries,
    /// like a hidraw node keeps report boundaries.
    static func seqpacketPair() throws(VIATransportError) -> (Int32, Int32) {
        var descriptors: [Int32] = [-1, -1]
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            throw .systemCall(name: "socketpair", path: "AF_UNIX", errno: errno)
        }
        return (descriptors[0], descriptors[1])
    }

    /// Writes all of `bytes` in one call: `send(2)` with `MSG_NOSIGNAL` on sockets (a closed peer is an error,
    /// not SIGPIPE), `write(2)` otherwise. hidraw and SOCK_SEQPACKET never split a record.
    package static func writeRecord(_ descriptor: Int32, _ bytes: [UInt8], isSocket: Bool, path: String)
        throws(VIATransportError)
    {
        let written = bytes.withUnsafeBytes { buffer in
            InterruptedCall.retry {
                isSocket
                    ? send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                    : Glibc.write(descriptor, buffer.baseAddress, buffer.count)
            }
        }
        if written < 0 {
            let code = errno
            if code == EPIPE || code == ECONNRESET || code == ENODEV || code == ENOTCONN {
                throw .disconnected
            }
            throw .systemCall(name: isSocket ? "send" : "write", path: path, errno: code)
        }
        guard written == bytes.count else { throw .unexpectedLength(count: written, expected: bytes.count) }
    }

    /// Waits with `poll(2)` until `descriptor` is readable, then reads one record with `read(2)`.
    /// - Throws: VIATransportError.timedOut, .disconnected at end of file or when the device is gone.
    static func readRecord(
        _ descriptor: Int32, maximumLength: Int, timeoutMilliseconds: Int, path: String
    ) throws(VIATransportError) -> [UInt8] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(timeoutMilliseconds))
        while true {
            let remaining = clock.now.duration(to: deadline)
            let (seconds, attoseconds) = remaining.components
            let milliseconds = max(0, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = InterruptedCall.retry { poll(&request, 1, Int32(clamping: milliseconds)) }
            if ready < 0 {
                throw .systemCall(name: "poll", path: path, errno: errno)
            }
            if ready == 0 {
                if milliseconds == 0 { throw .timedOut(milliseconds: timeoutMilliseconds) }
                continue
            }
            break
        }
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        let count = buffer.withUnsafeMutableBytes { raw in
            InterruptedCall.retry { Glibc.read(descriptor, raw.baseAddress, raw.count) }
        }
        if count < 0 {
            let code = errno
            if code == ENODEV || code == EIO || code == ECONNRESET { throw .disconnected }
            throw .systemCall(name: "read", path: path, errno: code)
        }
        if count == 0 { throw .disconnected }
        return Array(buffer[..<count])
    }

    /// Reads a whole (small) file such as a sysfs attribute.
    static func readFile(_ path: String, limit: Int = 1 << 20) throws(VIATransportError) -> [UInt8] {
        let descriptor = try open(path, flags: O_RDONLY)
        defer { _ = Glibc.close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while contents.count < limit {
            let count = chunk.withUnsafeMutableBytes { raw in
                InterruptedCall.retry { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            if count < 0 { throw .systemCall(name: "read", path: path, errno: errno) }
            if count == 0 { break }
            contents += chunk[..<count]
        }
        return contents
    }

    /// The entry names of a directory, without `.` and `..`, sorted.
    static func listDirectory(_ path: String) throws(VIATransportError) -> [String] {
        guard let directory = opendir(path) else { throw .systemCall(name: "opendir", path: path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
