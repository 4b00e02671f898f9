import Glibc

/// A VIA transport over a Linux hidraw node (`/dev/hidrawN`), USB or Bluetooth alike.
///
/// The kernel's hidraw interface (Documentation/hid/hidraw.rst) takes the report number as the first byte of
/// every `write()`, and 0 for devices without numbered reports; QMK's raw HID interface has none, so each report
/// is written as 33 bytes: 0x00 then the 32 report bytes, and the kernel strips the 0. Input reports of unnumbered
/// devices are read without a report number: exactly 32 bytes.
public final class VIAHIDRawTransport: VIATransport {
    /// The node this transport opened.
    public let path: String
    private let channel: VIADescriptorChannel

    /// Opens a hidraw node for reading and writing.
    /// - Parameter timeoutMilliseconds: how long `receive()` waits for a reply.
    /// - Throws: VIATransportError.systemCall when the node cannot be opened (EACCES: the user needs a udev rule).
    public init(path: String, timeoutMilliseconds: Int = 2_000) throws {
        self.path = path
        let descriptor = try VIAPosix.open(path, flags: O_RDWR)
        channel = VIADescriptorChannel(
            descriptor: descriptor, path: path, isSocket: false, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The bytes `write()` must receive for one report: report number 0, then the report.
    public static func writeBuffer(for report: VIAReport) -> [UInt8] {
        [0x00] + report.bytes
    }

    public func send(_ report: VIAReport) async throws {
        try await channel.write(Self.writeBuffer(for: report))
    }

    public func receive() async throws -> VIAReport {
        let bytes = try await channel.read(maximumLength: 64)
        guard bytes.count == VIAReport.length else {
            throw VIATransportError.unexpectedLength(count: bytes.count, expected: VIAReport.length)
        }
        return try VIAReport(validating: bytes)
    }

    /// Closes the node.
    public func close() {
        channel.close()
    }
}
