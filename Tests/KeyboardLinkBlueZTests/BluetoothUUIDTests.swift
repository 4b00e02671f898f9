import FoundationEssentials
import Testing

@testable import KeyboardLinkBlueZ

@Suite struct BluetoothUUIDTests {
    @Test(arguments: [
        "0x2A29", "0x2a29", "2A29", "0X2A29", "0x00002A29", "00002a29-0000-1000-8000-00805f9b34fb",
        "00002A29-0000-1000-8000-00805F9B34FB", "00002a2900001000800000805f9b34fb",
    ])
    func everyFormOfManufacturerNameIsEqual(text: String) throws {
        let uuid = try BluetoothUUID(text)
        #expect(uuid == .manufacturerName)
        #expect(uuid == BluetoothUUID(uint16: 0x2A29))
        #expect(uuid.uint16Value == 0x2A29)
        #expect(uuid.description == "00002a29-0000-1000-8000-00805f9b34fb")
        #expect(uuid.shortDescription == "0x2a29")
    }

    @Test func halvesOfTheBaseUUID() {
        let uuid = BluetoothUUID(uint16: 0x1812)
        #expect(uuid.high == 0x0000_1812_0000_1000)
        #expect(uuid.low == 0x8000_0080_5F9B_34FB)
    }

    @Test func thirtyTwoBitShortForm() throws {
        let uuid = try BluetoothUUID("0x0001FE59")
        #expect(uuid.uint32Value == 0x0001_FE59)
        #expect(uuid.uint16Value == nil)
        #expect(uuid.shortDescription == "0x0001fe59")
        #expect(uuid.description == "0001fe59-0000-1000-8000-00805f9b34fb")
    }

    @Test func vendorUUIDIsNotOnTheBase() throws {
        // ZMK Studio's RPC service.
        let uuid = try BluetoothUUID("00000000-0196-6107-C967-C5CFB1C2482A")
        #expect(uuid.uint32Value == nil)
        #expect(uuid.description == "00000000-0196-6107-c967-c5cfb1c2482a")
        #expect(uuid.shortDescription == uuid.description)
        #expect(uuid != BluetoothUUID(uint16: 0))
    }

    @Test(arguments: [
        ("", "expected 4 or 8 hex digits"),
        ("0x2A2", "expected 4 or 8 hex digits"),
        ("0x2A2G", "4 or 8 hex digits"),
        ("0x+A29", "4 or 8 hex digits"),
        ("00002a29-0000-1000-8000-00805f9b34f", "expected 4 or 8"),
        ("00002a29-00001-000-8000-00805f9b34fb", "groups of 8, 4, 4, 4 and 12"),
        ("00002a29-0000-1000-8000-00805f9b34fz", "only hex digits"),
        ("0x00002a2900001000800000805f9b34fb", "no 0x prefix"),
        ("00002a29-0000-1000-8000-00805f9b34fé", "expected 4 or 8"),
    ])
    func rejectsMalformedText(text: String, fragment: String) throws {
        let error = try #require(throws: BluetoothUUIDError.self) { try BluetoothUUID(text) }
        #expect(error.description.contains(fragment), "\(error.description)")
        #expect(BluetoothUUID(validating: text) == nil)
    }

    @Test func codableAsCanonicalText() throws {
        let data = try JSONEncoder().encode([BluetoothUUID.batteryLevel])
        #expect(String(decoding: data, as: UTF8.self) == #"["00002a19-0000-1000-8000-00805f9b34fb"]"#)
        let decoded = try JSONDecoder().decode([BluetoothUUID].self, from: Data(#"["0x180F"]"#.utf8))
        #expect(decoded == [.batteryService])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([BluetoothUUID].self, from: Data(#"["0x18"]"#.utf8))
        }
    }

    @Test func assignedNumbers() {
        #expect(BluetoothUUID.humanInterfaceDevice.uint16Value == 0x1124)
        #expect(BluetoothUUID.hidOverGATT.uint16Value == 0x1812)
        #expect(BluetoothUUID.deviceInformation.uint16Value == 0x180A)
        #expect(BluetoothUUID.pnpID.uint16Value == 0x2A50)
        #expect(BluetoothUUID.characteristicUserDescription.uint16Value == 0x2901)
    }
}
