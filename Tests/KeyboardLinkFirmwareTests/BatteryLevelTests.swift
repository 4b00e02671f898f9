import FoundationEssentials
import KeyboardLinkDBus
import Testing

@testable import KeyboardLinkFirmware

@Suite struct BatteryLevelTests {
    @Test(arguments: [UInt8(0), 1, 57, 100])
    func validLevels(value: UInt8) throws {
        #expect(try BatteryLevel(characteristicValue: [value]).percentage == value)
    }

    @Test func outOfRangeNote() throws {
        let error = try #require(throws: FirmwareValueError.self) { try BatteryLevel(characteristicValue: [250]) }
        #expect(error == .batteryLevelOutOfRange(250))
        #expect(error.description == "battery level 250 is out of range")
        #expect(throws: FirmwareValueError.batteryLevelOutOfRange(101)) { try BatteryLevel(percentage: 101) }
    }

    @Test(arguments: [0, 2, 3])
    func wrongLength(count: Int) throws {
        let error = try #require(throws: FirmwareValueError.self) {
            try BatteryLevel(characteristicValue: Array(repeating: 50, count: count))
        }
        #expect(error == .batteryLevelLength(count))
        #expect(error.description.contains("expected 1"))
    }

    @Test func cachedLevelIsValidated() throws {
        let decoded = try JSONDecoder().decode([BatteryLevel].self, from: Data("[42]".utf8))
        #expect(decoded.first?.percentage == 42)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([BatteryLevel].self, from: Data("[250]".utf8)) }
    }
}
