import KeyboardLinkDBus
import KeyboardLinkFirmware
import KeyboardLinkSupport
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkService

/// Firmware facts and battery readings as kblinkd publishes them: the `Firmware` and `Batteries` properties.
@Suite struct FirmwarePropertyTests {
    static let readAt = WallClockTime(secondsSince1970: 1_760_000_000)

    /// Vendor names that never touch the machine's usb.ids.
    static func vendorNames(_ directory: TemporaryDirectory) throws -> VendorNames {
        VendorNames(usbIDsPath: try directory.write("046d  Logitech, Inc.\n3434  Keychron\n", to: "usb.ids"))
    }

    @Test func firmwareProperty() throws {
        let info = FirmwareInfo(
            manufacturer: "OpenMoko", model: "ZMK Split", serial: nil, firmwareRevision: "3.5.0",
            identity: DeviceIdentity(source: .usb, vendorID: 0x1D50, productID: 0x615E, productVersion: 0x0305),
            vendorName: "OpenMoko, Inc.", readAt: Self.readAt)
        #expect(
            info.firmwareProperty == [
                "Manufacturer": "OpenMoko",
                "Model": "ZMK Split",
                "FirmwareRevision": "3.5.0",
                "VendorSource": "usb",
                "VendorId": "0x1d50",
                "ProductId": "0x615e",
                "ProductVersion": "0x0305",
                "VendorName": "OpenMoko, Inc.",
            ])
        #expect([String: String].dbusType == .dictionary(key: .string, value: .string))
    }

    @Test func emptyInfoHasEmptyProperties() {
        let info = FirmwareInfo(readAt: Self.readAt)
        #expect(info.firmwareProperty.isEmpty)
        #expect(info.batteryProperty.isEmpty)
    }

    @Test func splitKeyboardBatteriesByDescription() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let readings = FirmwareReadings(
            batteryLevels: [
                RawBatteryLevel(value: [85], description: "Left"),
                RawBatteryLevel(value: [72], userDescription: Array("Right".utf8) + [0]),
            ],
            battery1Percentage: 85, readAt: Self.readAt)
        let info = FirmwareInfo(readings: readings, vendorNames: try Self.vendorNames(directory))
        #expect(info.batteries.map(\.description) == ["left: 85%", "right: 72%"])
        #expect(
            info.batteryProperty.dbusValue
                == .array(
                    .structure([.string, .byte]),
                    [.structure([.string("left"), .byte(85)]), .structure([.string("right"), .byte(72)])]))
    }

    @Test func readingTravelsAsStringByteStruct() throws {
        let reading = BatteryReading(part: "left", level: try BatteryLevel(percentage: 85))
        #expect(BatteryReading.dbusType == .structure([.string, .byte]))
        #expect(reading.dbusValue == .structure([.string("left"), .byte(85)]))
        #expect(try BatteryReading(dbusValue: reading.dbusValue) == reading)
        #expect([reading].dbusValue == .array(.structure([.string, .byte]), [reading.dbusValue]))
    }

    @Test func readingFromDBusRejectsBadValues() {
        #expect(throws: DBusError.self) { try BatteryReading(dbusValue: .structure([.string("main"), .byte(101)])) }
        #expect(throws: DBusError.self) { try BatteryReading(dbusValue: .structure([.string("main")])) }
        #expect(throws: DBusError.self) { try BatteryReading(dbusValue: .string("main")) }
    }
}
