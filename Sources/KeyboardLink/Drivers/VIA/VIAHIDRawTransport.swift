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
package final class VIAHIDRawTransport: VIATransport {
    /// The node this transport opened.
    package let path: String
    /// The report ID of VIA's reports: 0 for an unnumbered raw HID interface.
    package let reportID: UInt8
    private let channel: VIADescriptorChannel

    /// Opens a discovered hidraw node for reading and writing, after checking that what opened is the node
    /// discovery found: the character device whose number the node's sysfs `dev` file gives. Between discovery
    /// and `open()` the node can go and its name be taken by another device (or a path be something else
    /// altogether); nothing is written to what fails the check.
    /// - Parameter timeoutMilliseconds: how long `receive()` waits for a reply.
    /// - Throws: ``HIDRawRefusal/unverifiable(path:)`` when discovery read no device number,
    ///   ``HIDRawRefusal/substituted(path:expected:found:)`` when the opened file is another (it is closed);
    ///   VIATransportError.systemCall when the node cannot be opened (EACCES: the user needs a udev rule).
    package convenience init(node: HIDRawNode, timeoutMilliseconds: Int = 2_000) throws {
        guard let expected = node.deviceNumber else { throw HIDRawRefusal.unverifiable(path: node.devicePath) }
        try self.init(
            path: node.devicePath, reportID: node.viaReportID, expectedDevice: expected,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Opens `path` for reading and writing when it is the character device `expectedDevice`.
    /// - Parameter timeoutMilliseconds: how long `receive()` waits for a reply.
    /// - Throws: ``HIDRawRefusal/substituted(path:expected:found:)`` when the opened file is not `expectedDevice`
    ///   (it is closed); VIATransportError.systemCall when the node cannot be opened or checked.
    package init(
        path: String, reportID: UInt8 = 0, expectedDevice: HIDRawNode.DeviceNumber, timeoutMilliseconds: Int = 2_000
    ) throws {
        self.path = path
        self.reportID = reportID
        let descriptor = try VIAPosix.open(path, flags: O_RDWR)
        let found: HIDRawNode.DeviceNumber?
        do {
            found = try VIAPosix.characterDevice(descriptor, path: path)
        } catch {
            _ = Glibc.close(descriptor)
            throw error
        }
        guard found == expectedDevice else {
            _ = Glibc.close(descriptor)
            throw HIDRawRefusal.substituted(
                path: path, expected: expectedDevice,
                found: found.map { "character device \($0)" } ?? "not a character device")
        }
        channel = VIADescriptorChannel(
            descriptor: descriptor, path: path, isSocket: false, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The bytes `write()` must receive for one report: the report number (0 when unnumbered), then the report.
    package static func writeBuffer(for report: VIAReport, reportID: UInt8 = 0) -> [UInt8] {
        [reportID] + report.bytes
    }

    package func send(_ report: VIAReport) async throws {
        try await channel.write(Self.writeBuffer(for: report, reportID: reportID))
    }

    package func receive() async throws -> VIAReport {
        while true {
            let bytes = try await channel.read(maximumLength: 64)
            if let report = try Self.report(from: bytes, reportID: reportID) { return report }
        }
    }

    /// The VIA report in what one `read()` returned: the 32 bytes of an unnumbered node, or those after the report
    /// ID of a numbered one; nil for another report of a numbered node (a key press), which the reader skips.
    /// - Throws: ``VIATransportError/unexpectedLength(count:expected:)`` for a VIA report of the wrong size.
    package static func report(from bytes: [UInt8], reportID: UInt8) throws -> VIAReport? {
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
    package func close() {
        channel.close()
    }
}
