/// One VIA raw HID report: exactly 32 bytes, command id first.
package struct VIAReport: Hashable, Sendable, CustomStringConvertible {
    /// The report length both ways.
    package static let length = 32

    /// The 32 bytes.
    package let bytes: [UInt8]

    /// Checks that `bytes` is exactly one report.
    /// - Throws: VIAProtocolError.wrongReportLength otherwise.
    package init(validating bytes: some Collection<UInt8>) throws(VIAProtocolError) {
        guard bytes.count == Self.length else { throw .wrongReportLength(bytes.count) }
        self.bytes = Array(bytes)
    }

    /// Builds a report from a prefix written by code, zero-padded to 32 bytes.
    /// - Precondition: `prefix` has at most 32 bytes (callers check data lengths first).
    package init(padding prefix: [UInt8]) {
        precondition(prefix.count <= Self.length, "VIA report prefix longer than 32 bytes")
        bytes = prefix + [UInt8](repeating: 0, count: Self.length - prefix.count)
    }

    /// Byte 0: the command id, or 0xFF in a reply to a command the keyboard does not handle.
    package var commandByte: UInt8 { bytes[0] }

    /// A big-endian 16-bit value at `index` and `index + 1` (code supplies indices below 31).
    func uint16(at index: Int) -> UInt16 {
        UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    /// A big-endian 32-bit value at `index` ... `index + 3` (code supplies indices below 29).
    func uint32(at index: Int) -> UInt32 {
        bytes[index..<(index + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    package var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    }
}
