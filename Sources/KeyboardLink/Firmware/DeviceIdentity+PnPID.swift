extension DeviceIdentity {
    /// Decodes a PnP ID characteristic value (0x2A50): 7 bytes, `[0]` vendor-ID source (1 Bluetooth SIG,
    /// 2 USB-IF), `[1...2]` vendor ID, `[3...4]` product ID, `[5...6]` product version, all little-endian.
    /// - Throws: ``FirmwareValueError/pnpIDLength(_:)`` unless there are exactly 7 bytes,
    ///   ``FirmwareValueError/pnpIDSource(_:)`` for a source byte other than 1 or 2.
    package init(pnpID bytes: [UInt8]) throws(FirmwareValueError) {
        guard bytes.count == 7 else { throw .pnpIDLength(bytes.count) }
        guard let source = VendorIDSource(pnpSource: bytes[0]) else { throw .pnpIDSource(bytes[0]) }
        func littleEndian(_ index: Int) -> UInt16 { UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 }
        self.init(
            source: source, vendorID: littleEndian(1), productID: littleEndian(3), productVersion: littleEndian(5))
    }

    /// The 7-byte PnP ID characteristic value of this identity (what a simulated keyboard serves).
    package var pnpIDBytes: [UInt8] {
        [source.pnpSource]
            + [vendorID, productID, productVersion].flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
    }
}
