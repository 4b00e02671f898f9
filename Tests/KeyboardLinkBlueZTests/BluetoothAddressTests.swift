import FoundationEssentials
import KeyboardLinkDBus
import Testing

@testable import KeyboardLinkBlueZ

@Suite struct BluetoothAddressTests {
    @Test(arguments: [
        ("C8:7F:54:0A:1B:2C", "C8:7F:54:0A:1B:2C"),
        ("c8:7f:54:0a:1b:2c", "C8:7F:54:0A:1B:2C"),
        ("00:1a:7D:dA:71:13", "00:1A:7D:DA:71:13"),
    ])
    func parsesAndCanonicalises(input: String, canonical: String) throws {
        let address = try BluetoothAddress(input)
        #expect(address.description == canonical)
    }

    @Test func bytesAreMostSignificantFirst() throws {
        let address = try BluetoothAddress("C8:7F:54:0A:1B:2C")
        #expect(address.bytes == [0xC8, 0x7F, 0x54, 0x0A, 0x1B, 0x2C])
    }

    @Test func lowercaseAndUppercaseAreEqual() throws {
        #expect(try BluetoothAddress("aa:bb:cc:dd:ee:ff") == BluetoothAddress("AA:BB:CC:DD:EE:FF"))
    }

    @Test(arguments: [
        ("", "got 1"),
        ("C8:7F:54:0A:1B", "got 5"),
        ("C8:7F:54:0A:1B:2C:00", "got 7"),
        ("C8-7F-54-0A-1B-2C", "got 1"),
        ("C8:7F:54:0A:1B:2G", "group 6 \"2G\""),
        ("C8:7F:54:0A:1B:2", "group 6 \"2\""),
        ("C8:7F:54:0A:1B:+2", "group 6 \"+2\""),
        ("C8:7F:54:0A:1B:2CC", "group 6 \"2CC\""),
        ("C8:7F:54:0A::2C", "group 5 \"\""),
    ])
    func rejectsMalformedText(input: String, expectedFragment: String) throws {
        #expect(BluetoothAddress(validating: input) == nil)
        let error = try #require(throws: BluetoothAddressError.self) { try BluetoothAddress(input) }
        #expect(error.description.contains(expectedFragment), "\(error.description)")
        #expect(error.description.contains("01:23:45:67:89:AB"))
    }

    @Test func objectPathElementRoundTrips() throws {
        let address = try BluetoothAddress(pathElement: "dev_C8_7F_54_0A_1B_2C")
        #expect(address.description == "C8:7F:54:0A:1B:2C")
        #expect(address.pathElement == "dev_C8_7F_54_0A_1B_2C")
        #expect(try BluetoothAddress("c8:7f:54:0a:1b:2c").pathElement == "dev_C8_7F_54_0A_1B_2C")
    }

    @Test func devicePathUsesTheLastElement() throws {
        let path = ObjectPath("/org/bluez/hci1/dev_00_1A_7D_DA_71_13")
        let address = try BluetoothAddress(devicePath: path)
        #expect(address.description == "00:1A:7D:DA:71:13")
        #expect(address.devicePath(adapter: ObjectPath("/org/bluez/hci1")) == path)
    }

    @Test(arguments: [
        ("C8_7F_54_0A_1B_2C", "starts with \"dev_\""),
        ("dev_C8:7F:54:0A:1B:2C", "got 1"),
        ("dev_C8_7F_54_0A_1B", "got 5"),
        ("service0010", "starts with \"dev_\""),
    ])
    func rejectsMalformedPathElements(element: String, expectedFragment: String) throws {
        let error = try #require(throws: BluetoothAddressError.self) { try BluetoothAddress(pathElement: element) }
        #expect(error.kind == "device path element")
        #expect(error.description.contains(expectedFragment), "\(error.description)")
    }

    @Test func ordersByBytes() throws {
        let low = try BluetoothAddress("00:FF:FF:FF:FF:FF")
        let high = try BluetoothAddress("01:00:00:00:00:00")
        #expect(low < high)
        #expect(!(high < low))
    }

    @Test func bytesInitialiserChecksCount() throws {
        #expect(try BluetoothAddress(bytes: [1, 2, 3, 4, 5, 6]).description == "01:02:03:04:05:06")
        #expect(throws: BluetoothAddressError.self) { try BluetoothAddress(bytes: [1, 2, 3]) }
    }

    @Test func controlCharactersInRefusedTextAreReplaced() throws {
        let error = try #require(throws: BluetoothAddressError.self) { try BluetoothAddress("\u{1B}[31m") }
        #expect(!error.description.contains("\u{1B}"))
        #expect(error.text == "?[31m")
    }

    @Test func encodesAsCanonicalText() throws {
        let data = try JSONEncoder().encode([try BluetoothAddress("c8:7f:54:0a:1b:2c")])
        #expect(String(decoding: data, as: UTF8.self) == #"["C8:7F:54:0A:1B:2C"]"#)
    }

    @Test func decodesAndValidates() throws {
        let decoded = try JSONDecoder().decode([BluetoothAddress].self, from: Data(#"["00:1a:7d:da:71:13"]"#.utf8))
        #expect(decoded.first?.description == "00:1A:7D:DA:71:13")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([BluetoothAddress].self, from: Data(#"["00:1a:7d"]"#.utf8))
        }
    }
}
