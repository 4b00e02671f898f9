import Testing

@testable import KeyboardLinkDrivers

/// A Bluetooth LE keyboard carries VIA's raw HID collection in its one HID service, beside its keyboard collection,
/// so the reports are numbered: the hidraw node takes and gives the report ID before the 32 bytes (BlueZ's `hog`
/// plugin drops an output report whose number matches none). Found by the real-stack rig (docs/real-bluez.md).
@Suite("VIA over a numbered raw HID collection")
struct NumberedRawHIDTests {
    /// A BLE keyboard's report map: a keyboard with report ID 1, then VIA's raw HID collection with report ID 2.
    static let bleKeyboard: [UInt8] = [
        0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x85, 0x01, 0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00, 0x25, 0x01,
        0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0xC0,
        0x06, 0x60, 0xFF, 0x09, 0x61, 0xA1, 0x01, 0x85, 0x02,
        0x09, 0x62, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x81, 0x02,
        0x09, 0x63, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x91, 0x02, 0xC0,
    ]

    @Test("the report ID of each application collection; QMK's USB interface is unnumbered")
    func reportIDs() throws {
        let ble = try HIDReportDescriptor(bytes: Self.bleKeyboard)
        #expect(ble.applicationCollections == [.init(page: 0x01, id: 0x06), .viaRawHID])
        #expect(ble.applicationReportIDs == [1, 2])
        #expect(ble.reportID(of: .viaRawHID) == 2)
        let usb = try HIDReportDescriptor(bytes: HIDReportDescriptorTests.qmkRawHID)
        #expect(usb.reportID(of: .viaRawHID) == nil)
        #expect(usb.applicationReportIDs == [nil])
    }

    @Test("a report ID set inside a pushed global state is restored by pop")
    func pushPop() throws {
        // Push, report ID 5, a main item, pop: the next collection's report has no ID again.
        let bytes: [UInt8] =
            [0x06, 0x60, 0xFF, 0x09, 0x61, 0xA1, 0x01, 0xA4, 0x85, 0x05, 0x81, 0x02, 0xB4, 0xC0]
            + HIDReportDescriptorTests.qmkRawHID
        let descriptor = try HIDReportDescriptor(bytes: bytes)
        #expect(descriptor.applicationReportIDs == [5, nil])
    }

    @Test("writes carry the report ID, reads drop it and skip the node's other reports")
    func framing() throws {
        let report = try VIACommand.getLayerCount.report()
        #expect(VIAHIDRawTransport.writeBuffer(for: report, reportID: 2) == [2] + report.bytes)
        let answer = [UInt8](repeating: 0x11, count: 32)
        #expect(try VIAHIDRawTransport.report(from: [2] + answer, reportID: 2)?.bytes == answer)
        #expect(try VIAHIDRawTransport.report(from: [1, 0, 0, 4, 0, 0, 0, 0, 0], reportID: 2) == nil)
        #expect(throws: VIATransportError.self) { try VIAHIDRawTransport.report(from: [2, 1, 2], reportID: 2) }
        #expect(try VIAHIDRawTransport.report(from: answer, reportID: 0)?.bytes == answer)
        #expect(throws: VIATransportError.self) { try VIAHIDRawTransport.report(from: [2] + answer, reportID: 0) }
    }
}
