import Testing

@testable import KeyboardLinkDrivers

@Suite("HID report descriptor")
struct HIDReportDescriptorTests {
    /// QMK's raw HID descriptor: usage page 0xFF60, usage 0x61, application collection with a 32-byte input
    /// (usage 0x62) and a 32-byte output (usage 0x63).
    static let qmkRawHID: [UInt8] = [
        0x06, 0x60, 0xFF, 0x09, 0x61, 0xA1, 0x01,
        0x09, 0x62, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x81, 0x02,
        0x09, 0x63, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x91, 0x02,
        0xC0,
    ]

    /// A boot keyboard's top level: usage page generic desktop, usage keyboard, with a nested collection.
    static let keyboard: [UInt8] = [
        0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x05, 0x07, 0x09, 0x01, 0xA1, 0x00, 0x81, 0x02, 0xC0, 0xC0,
    ]

    @Test("QMK's raw HID interface declares usage page 0xFF60, usage 0x61")
    func qmk() throws {
        let descriptor = try HIDReportDescriptor(bytes: Self.qmkRawHID)
        #expect(descriptor.applicationCollections == [.viaRawHID])
        #expect(descriptor.declares(.viaRawHID))
    }

    @Test("A keyboard interface is not VIA; nested collections are not top-level")
    func keyboardInterface() throws {
        let descriptor = try HIDReportDescriptor(bytes: Self.keyboard + Self.qmkRawHID)
        #expect(descriptor.applicationCollections == [.init(page: 0x01, id: 0x06), .viaRawHID])
        #expect(try !HIDReportDescriptor(bytes: Self.keyboard).declares(.viaRawHID))
    }

    @Test("An extended 4-byte usage carries its own page")
    func extendedUsage() throws {
        let descriptor = try HIDReportDescriptor(bytes: [0x05, 0x01, 0x0B, 0x61, 0x00, 0x60, 0xFF, 0xA1, 0x01, 0xC0])
        #expect(descriptor.applicationCollections == [.viaRawHID])
    }

    @Test("Push and pop restore the usage page; long items are skipped")
    func pushPopAndLongItems() throws {
        let bytes: [UInt8] = [
            0xFE, 0x02, 0x10, 0xAA, 0xBB,  // long item
            0x05, 0x01, 0xA4, 0x06, 0x60, 0xFF, 0xB4,  // page 1, push, page 0xFF60, pop → page 1
            0x09, 0x06, 0xA1, 0x01, 0xC0,
        ]
        #expect(try HIDReportDescriptor(bytes: bytes).applicationCollections == [.init(page: 0x01, id: 0x06)])
    }

    @Test(
        "Malformed descriptors are errors",
        arguments: [
            ([UInt8]([0x06, 0x60]), HIDReportDescriptor.ParseError.truncatedItem(offset: 0)),
            ([0x05, 0x01, 0xFE, 0x05, 0x10, 0x01], .truncatedItem(offset: 2)),
            ([0xB4], .popWithoutPush(offset: 0)),
            ([0xA1, 0x01, 0xC0, 0xC0], .unbalancedEndCollection(offset: 3)),
            ([UInt8](repeating: 0xA4, count: 40), .pushTooDeep(limit: 32)),
        ])
    func malformed(bytes: [UInt8], expected: HIDReportDescriptor.ParseError) {
        #expect(throws: expected) { try HIDReportDescriptor(bytes: bytes) }
    }
}
