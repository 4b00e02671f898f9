import Glibc

/// A VIA transport over a Linux hidraw node (`/dev/hidrawN`), USB or Bluetooth alike.
///
/// The kernel's hidraw interface (Documentation/hid/hidraw.rst) takes the report number as the first byte of
/// every `write()`, and 0 for devices without numbered reports; QMK's raw HID interface has none, so each report
/// is written as 33 bytes: 0x00 then the 32 report bytes, and the kernel strips the 0. Input reports of unnumbered
/// devices are read without a report number: exactly 32 bytes.
///
/// A Bluetooth LE keyboard carries the raw HID collection in its one HID service, beside its keyboard collection,
/// so its reports are numbered (`reportID` from the report descriptor): each is written as the ID then the 32
/// bytes (BlueZ's `hog` plugin strips the ID and writes the Output Report characteristic of that ID; a leading 0
/// would match no report and be dropped), and read as the ID then 32 bytes; the node's other input reports (key
/// presses) are skipped.
public final class VIAHIDRawTransport: VIATransport {
    /// The node this transport opened.
    public let path: String
    /// The report ID of VIA's reports: 0 for an unnumbered raw HID interface.
    public let reportID: UInt8
    private let channel: VIADescriptorChannel

    /// Opens a hidraw node for reading and writing.
    /// - Parameter timeoutMilliseconds: how long `receive()` waits for a reply.
    /// - Throws: VIATransportError.systemCall when the node cannot be opened (EACCES: the user needs a udev rule).
    public init(path: String, reportID: UInt8 = 0, timeoutMilliseconds: Int = 2_000) throws {
        self.path = path
        self.reportID = reportID
        let descriptor = try VIAPosix.open(path, flags: O_RDWR)
        channel = VIADescriptorChannel(
            descriptor: descriptor, path: path, isSocket: false, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The bytes `write()` must receive for one report: the report number (0 when unnumbered), then the report.
    public static func writeBuffer(for report: VIAReport, reportID: UInt8 = 0) -> [UInt8] {
        [reportID] + report.bytes
    }

    public func send(_ report: VIAReport) async throws {
        try await channel.write(Self.writeBuffer(for: report, reportID: reportID))
    }

    public func receive() async throws -> VIAReport {
        while true {
            let bytes = try await channel.read(maximumLength: 64)
            if let report = try Self.report(from: bytes, reportID: reportID) { return report }
        }
    }

    /// The VIA report in what one `read()` returned: the 32 bytes of an unnumbered node, or those after the report
    /// ID of a numbered one; nil for another report of a numbered node (a key press), which the reader skips.
    /// - Throws: ``VIATransportError/unexpectedLength(count:expected:)`` for a VIA report of the wrong size.
    public static func report(from bytes: [UInt8], reportID: UInt8) throws -> VIAReport? {
        guard reportID != 0 else {
            guard bytes.count == VIAReport.length else {
                throw VIATransportError.unexpectedLength(count: bytes.count, expected: VIAReport.length)
            }
            return try VIAReport(validating: bytes)
        }
        guard bytes.first == reportID else { return nil }
        guard bytes.count == VIAReport.length + 1 else {
            throw VIATransportError.unexpectedLength(count: bytes.count, expected: VIAReport.length + 1)
        }
        return try VIAReport(validating: Array(bytes.dropFirst()))
    }

    /// Closes the node.
    public func close() {
        channel.close()
    }
}
