import KeyboardLinkSupport
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkFirmware

@Suite struct FirmwareInfoTests {
    static let readAt = WallClockTime(secondsSince1970: 1_760_000_000)

    /// Vendor names that never touch the machine's usb.ids.
    static func vendorNames(_ directory: TemporaryDirectory) throws -> VendorNames {
        VendorNames(usbIDsPath: try directory.write("046d  Logitech, Inc.\n3434  Keychron\n", to: "usb.ids"))
    }

    @Test func completeKeyboard() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let readings = FirmwareReadings(
            strings: [
                .manufacturer: Array("Logitech".utf8),
                .model: Array("MX Keys".utf8) + [0, 0, 0],
                .serial: Array("2117LZ05R8F8".utf8),
                .firmwareRevision: Array("RBK78.00_0019".utf8),
                .hardwareRevision: Array("47".utf8),
                .softwareRevision: Array("12.3".utf8),
            ],
            pnpID: [0x02, 0x6D, 0x04, 0x4D, 0xC5, 0x00, 0x01], modalias: "usb:v046DpC54Dd0100",
            batteryLevels: [RawBatteryLevel(value: [80])], battery1Percentage: 80, readAt: Self.readAt)
        let info = FirmwareInfo(readings: readings, vendorNames: try Self.vendorNames(directory))
        #expect(info.manufacturer == "Logitech")
        #expect(info.model == "MX Keys")
        #expect(info.serial == "2117LZ05R8F8")
        #expect(info.firmwareRevision == "RBK78.00_0019")
        #expect(info.hardwareRevision == "47")
        #expect(info.softwareRevision == "12.3")
        #expect(info.vendorSource == .usb)
        #expect(info.vendorID == 0x046D)
        #expect(info.productID == 0xC54D)
        #expect(info.productVersion == 0x0100)
        #expect(info.vendorName == "Logitech, Inc.")
        #expect(info.batteries == [BatteryReading(part: "main", level: try BatteryLevel(percentage: 80))])
        #expect(info.notes.isEmpty)
        #expect(info.readAt == Self.readAt)
    }

    @Test func malformedValuesGiveNotesAndNoCrash() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let readings = FirmwareReadings(
            strings: [.serial: [0x53, 0x4E, 0xFF, 0x31]],
            pnpID: [0x02, 0x6D, 0x04, 0x4D, 0xC5],
            modalias: "bluetooth:v004Cp0267d0110",
            batteryLevels: [RawBatteryLevel(value: [250])], readAt: Self.readAt)
        let info = FirmwareInfo(readings: readings, vendorNames: try Self.vendorNames(directory))
        #expect(info.serial == "SN\u{FFFD}1")
        // The PnP ID was unusable, so the Modalias gives the identity.
        #expect(
            info.identity == DeviceIdentity(source: .bluetooth, vendorID: 0x4C, productID: 0x267, productVersion: 0x110)
        )
        #expect(info.vendorName == "Apple, Inc.")
        #expect(info.batteries.isEmpty)
        #expect(
            info.notes == [
                "serial number is not valid UTF-8",
                "PnP ID has 5 bytes, expected 7; ignored",
                "battery level 250 is out of range",
            ])
    }

    @Test func pnpIDWinsOverModaliasWithANote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let readings = FirmwareReadings(
            pnpID: [0x02, 0x34, 0x34, 0x20, 0x08, 0x01, 0x01], modalias: "usb:v046DpC54Dd0100", readAt: Self.readAt)
        let info = FirmwareInfo(readings: readings, vendorNames: try Self.vendorNames(directory))
        #expect(info.vendorID == 0x3434)
        #expect(info.productID == 0x0820)
        #expect(info.productVersion == 0x0101)
        #expect(info.vendorName == "Keychron")
        #expect(
            info.notes == [
                "PnP ID (usb:v3434p0820d0101) disagrees with Modalias (usb:v046DpC54Dd0100); using the PnP ID"
            ])
    }

    @Test func malformedModaliasIsANote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let readings = FirmwareReadings(modalias: "usb:v04", readAt: Self.readAt)
        let info = FirmwareInfo(readings: readings, vendorNames: try Self.vendorNames(directory))
        #expect(info.identity == nil)
        #expect(info.notes.count == 1)
        #expect(info.notes.first?.hasPrefix("Modalias \"usb:v04\" is not") == true)
    }

    @Test func battery1IsUsedWhenNoCharacteristicIsReadable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let hidden = FirmwareReadings(battery1Percentage: 64, readAt: Self.readAt)
        let names = try Self.vendorNames(directory)
        #expect(FirmwareInfo(readings: hidden, vendorNames: names).batteries.map(\.description) == ["main: 64%"])

        let failed = FirmwareReadings(
            batteryLevels: [RawBatteryLevel(value: [])], battery1Percentage: 64, readAt: Self.readAt)
        let info = FirmwareInfo(readings: failed, vendorNames: names)
        #expect(info.batteries.map(\.description) == ["main: 64%"])
        #expect(info.notes == ["battery level has 0 bytes, expected 1; ignored"])

        let bad = FirmwareReadings(battery1Percentage: 200, readAt: Self.readAt)
        let badInfo = FirmwareInfo(readings: bad, vendorNames: names)
        #expect(badInfo.batteries.isEmpty)
        #expect(badInfo.notes == ["battery level 200 is out of range"])
    }

    @Test func batteryNotesNameThePartWhenThereAreSeveral() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let readings = FirmwareReadings(
            batteryLevels: [RawBatteryLevel(value: [90]), RawBatteryLevel(value: [250], description: "Right")],
            readAt: Self.readAt)
        let info = FirmwareInfo(readings: readings, vendorNames: try Self.vendorNames(directory))
        #expect(info.batteries.map(\.description) == ["main: 90%"])
        #expect(info.notes == ["right: battery level 250 is out of range"])
    }

    @Test func readAtIsKeptToTheSecond() {
        let info = FirmwareInfo(readAt: WallClockTime(secondsSince1970: 1_760_000_000, nanoseconds: 750_000_000))
        #expect(info.readAt == WallClockTime(secondsSince1970: 1_760_000_000))
    }

    @Test func cacheRoundTrips() throws {
        let info = FirmwareInfo(
            manufacturer: "Aula", model: "F87", serial: "SN\u{FFFD}1", firmwareRevision: "1.0.4",
            hardwareRevision: "B", softwareRevision: "2",
            identity: DeviceIdentity(source: .bluetooth, vendorID: 0x05D6, productID: 0x0F87, productVersion: 0x0104),
            vendorName: "Some Vendor",
            batteries: [
                BatteryReading(part: "left", level: try BatteryLevel(percentage: 100)),
                BatteryReading(part: "right", level: try BatteryLevel(percentage: 0)),
            ],
            notes: ["serial number is not valid UTF-8"], readAt: Self.readAt)
        let data = try info.cacheData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"version\" : 1"))
        #expect(text.contains("\"readAt\" : \"2025-10-09T08:53:20Z\""))
        #expect(try FirmwareInfo(cacheData: data) == info)
    }

    @Test func cacheOfAnotherVersionIsRefused() throws {
        let text = #"{"version": 2, "firmware": {}}"#
        let error = try #require(throws: FirmwareCacheError.self) { try FirmwareInfo(cacheData: Array(text.utf8)) }
        #expect(error.description.contains("cache format 2 is not 1"))
    }

    @Test(arguments: [
        "", "not json", #"{"firmware": {}}"#, #"{"version": 1, "firmware": {"readAt": 5}}"#,
        #"{"version": 1, "firmware": {"batteries": [{"part": "main", "level": 250}], "notes": [], "#
            + #""readAt": "2025-10-09T08:53:20Z"}}"#,
    ])
    func corruptCacheIsRefused(text: String) throws {
        let error = try #require(throws: FirmwareCacheError.self) { try FirmwareInfo(cacheData: Array(text.utf8)) }
        #expect(error.description.contains("rebuilt on the next refresh"))
    }
}
