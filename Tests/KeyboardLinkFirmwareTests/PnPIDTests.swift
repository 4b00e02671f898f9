import Testing

@testable import KeyboardLinkFirmware

@Suite struct PnPIDTests {
    @Test func usbLogitechReceiver() throws {
        // Source 2 (USB-IF), vendor 0x046D (6D 04), product 0xC54D (4D C5), version 0x0100 (00 01).
        let identity = try DeviceIdentity(pnpID: [0x02, 0x6D, 0x04, 0x4D, 0xC5, 0x00, 0x01])
        #expect(identity.source == .usb)
        #expect(identity.vendorID == 0x046D)
        #expect(identity.productID == 0xC54D)
        #expect(identity.productVersion == 0x0100)
    }

    @Test func bluetoothSIGApple() throws {
        // Source 1 (Bluetooth SIG), vendor 0x004C (4C 00), product 0x0267 (67 02), version 0x0110 (10 01).
        let identity = try DeviceIdentity(pnpID: [0x01, 0x4C, 0x00, 0x67, 0x02, 0x10, 0x01])
        #expect(
            identity == DeviceIdentity(source: .bluetooth, vendorID: 0x004C, productID: 0x0267, productVersion: 0x0110))
    }

    @Test func bytesRoundTrip() throws {
        let bytes: [UInt8] = [0x02, 0x50, 0x1D, 0x15, 0x61, 0x34, 0x12]
        let identity = try DeviceIdentity(pnpID: bytes)
        #expect(identity.vendorID == 0x1D50)
        #expect(identity.productID == 0x6115)
        #expect(identity.productVersion == 0x1234)
        #expect(identity.pnpIDBytes == bytes)
    }

    @Test(arguments: [0, 1, 5, 6, 8])
    func wrongLengthIsRefusedWithAClearNote(count: Int) throws {
        let bytes = Array([UInt8](arrayLiteral: 0x02, 0x6D, 0x04, 0x4D, 0xC5, 0x00, 0x01, 0xFF).prefix(count))
        let error = try #require(throws: FirmwareValueError.self) { try DeviceIdentity(pnpID: bytes) }
        #expect(error == .pnpIDLength(count))
        #expect(error.description.contains("PnP ID has \(count) byte"))
        #expect(error.description.contains("expected 7"))
    }

    @Test func fiveBytesNote() throws {
        let error = try #require(throws: FirmwareValueError.self) {
            try DeviceIdentity(pnpID: [0x02, 0x6D, 0x04, 0x4D, 0xC5])
        }
        #expect(error.description == "PnP ID has 5 bytes, expected 7; ignored")
    }

    @Test(arguments: [UInt8(0), 3, 0xFF])
    func unknownSourceIsRefused(source: UInt8) throws {
        let error = try #require(throws: FirmwareValueError.self) {
            try DeviceIdentity(pnpID: [source, 0x6D, 0x04, 0x4D, 0xC5, 0x00, 0x01])
        }
        #expect(error == .pnpIDSource(source))
        #expect(error.description.contains("source is \(source)"))
    }
}
