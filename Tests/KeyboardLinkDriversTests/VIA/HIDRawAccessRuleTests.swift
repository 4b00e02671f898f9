import Foundation
import Testing

@testable import KeyboardLinkDrivers

/// The udev helper's rule on real report descriptors: the group kblinkd gets VIA's raw HID interface and never a node
/// that carries key reports.
@Suite("Which hidraw nodes the group kblinkd may open")
struct HIDRawAccessRuleTests {
    /// The boot keyboard descriptor of the HID specification (HID 1.11, appendix B.1), which keyboards' key
    /// interfaces send: modifiers, reserved byte, LEDs, six key codes.
    static let bootKeyboard: [UInt8] = [
        0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01,
        0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x05, 0x75, 0x01, 0x05, 0x08, 0x19, 0x01,
        0x29, 0x05, 0x91, 0x02, 0x95, 0x01, 0x75, 0x03, 0x91, 0x01, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x25, 0x65,
        0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xC0,
    ]

    /// QMK's consumer-control collection (report id 3, 16-bit usages 1 to 0x29C): media keys.
    static let qmkConsumer: [UInt8] = [
        0x05, 0x0C, 0x09, 0x01, 0xA1, 0x01, 0x85, 0x03, 0x15, 0x01, 0x26, 0x9C, 0x02, 0x19, 0x01, 0x2A, 0x9C, 0x02,
        0x75, 0x10, 0x95, 0x01, 0x81, 0x00, 0xC0,
    ]

    @Test("QMK's raw HID interface (VIA, Vial) is granted")
    func rawHID() {
        let decision = HIDRawAccessRule.decision(forDescriptor: HIDReportDescriptorTests.qmkRawHID)
        #expect(decision.granted, "\(decision.reason)")
    }

    @Test(
        "key, media-key and combined interfaces are refused",
        arguments: [
            ("boot keyboard", bootKeyboard),
            ("consumer keys", qmkConsumer),
            ("keyboard then raw HID in one descriptor", bootKeyboard + HIDReportDescriptorTests.qmkRawHID),
            ("raw HID then consumer keys", HIDReportDescriptorTests.qmkRawHID + qmkConsumer),
        ])
    func keyInterfaces(name: String, bytes: [UInt8]) {
        let decision = HIDRawAccessRule.decision(forDescriptor: bytes)
        #expect(!decision.granted, "\(name)")
        #expect(decision.reason.contains("usage page"), "\(name): \(decision.reason)")
    }

    @Test("a 0xFF60 collection that reports keyboard usages inside it is refused")
    func keysHiddenInRawHID() {
        // Usage page 0xFF60 collection, then Usage Page 0x07 (keyboard) with an input of key codes inside it.
        let bytes: [UInt8] = [
            0x06, 0x60, 0xFF, 0x09, 0x61, 0xA1, 0x01, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x95, 0x06, 0x75, 0x08,
            0x81, 0x00, 0xC0,
        ]
        #expect(!HIDRawAccessRule.decision(forDescriptor: bytes).granted)
        // The same with the keyboard page inside an extended usage minimum instead of a Usage Page item.
        let extended: [UInt8] = [
            0x06, 0x60, 0xFF, 0x09, 0x61, 0xA1, 0x01, 0x1B, 0x00, 0x00, 0x07, 0x00, 0x29, 0x65, 0x81, 0x00, 0xC0,
        ]
        #expect(!HIDRawAccessRule.decision(forDescriptor: extended).granted)
    }

    @Test("other vendor pages, empty and malformed descriptors are refused")
    func others() {
        let vendor: [UInt8] = [0x06, 0x00, 0xFF, 0x09, 0x01, 0xA1, 0x01, 0x81, 0x02, 0xC0]
        #expect(!HIDRawAccessRule.decision(forDescriptor: vendor).granted)
        #expect(!HIDRawAccessRule.decision(forDescriptor: []).granted)
        #expect(!HIDRawAccessRule.decision(forDescriptor: [0x06, 0x60]).granted)
        // Page 0xFF60 named, but no collection.
        #expect(!HIDRawAccessRule.decision(forDescriptor: [0x06, 0x60, 0xFF, 0x09, 0x61]).granted)
    }

    @Test("descriptor files: read whole, missing ones and ones over 4096 bytes refused")
    func files() throws {
        let directory = NSTemporaryDirectory() + "kblink-hidraw-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(HIDReportDescriptorTests.qmkRawHID).write(to: URL(fileURLWithPath: directory + "/via"))
        try Data(Self.bootKeyboard).write(to: URL(fileURLWithPath: directory + "/keys"))
        try Data(Array(repeating: HIDReportDescriptorTests.qmkRawHID, count: 200).joined())
            .write(to: URL(fileURLWithPath: directory + "/huge"))
        #expect(HIDRawAccessRule.decision(forDescriptorAt: directory + "/via").granted)
        #expect(!HIDRawAccessRule.decision(forDescriptorAt: directory + "/keys").granted)
        #expect(!HIDRawAccessRule.decision(forDescriptorAt: directory + "/missing").granted)
        let huge = HIDRawAccessRule.decision(forDescriptorAt: directory + "/huge")
        #expect(!huge.granted && huge.reason.contains("4096"))
    }
}
