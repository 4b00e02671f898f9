import KBlinkAPI
import KeyboardLinkFirmware
import KeyboardLinkSupport
import Testing

@testable import KeyboardLinkService

@Suite struct FirmwareExportedPropertyTests {
    static let readAt = WallClockTime(secondsSince1970: 1_764_419_922)  // 2025-11-29T12:38:42Z

    @Test func exportedPropertyAddsReadTimeAndNotes() {
        let info = FirmwareInfo(
            model: "F87",
            identity: DeviceIdentity(source: .usb, vendorID: 0x258A, productID: 0x010C, productVersion: 2),
            notes: ["first note", "second\nnote"], readAt: Self.readAt)
        #expect(
            info.exportedProperty == [
                "Model": "F87", "VendorSource": "usb", "VendorId": "0x258a", "ProductId": "0x010c",
                "ProductVersion": "0x0002", "ReadAt": "2025-11-29T12:38:42Z", "Notes": "first note\nsecond note",
            ])
        #expect(FirmwareSummary(exportedProperty: info.exportedProperty).readAt == Self.readAt)
        #expect(FirmwareSummary(exportedProperty: info.exportedProperty).notes == ["first note", "second note"])
    }

    @Test func noNotesNoKey() {
        let info = FirmwareInfo(readAt: Self.readAt)
        #expect(info.exportedProperty == ["ReadAt": "2025-11-29T12:38:42Z"])
        #expect(FirmwareSummary(exportedProperty: info.exportedProperty).notes.isEmpty)
    }

    @Test func malformedReadTimeIsNil() {
        #expect(FirmwareSummary(exportedProperty: ["ReadAt": "yesterday"]).readAt == nil)
        #expect(FirmwareSummary(exportedProperty: [:]).readAt == nil)
    }

    @Test func summaryOfACompleteKeyboard() {
        let summary = FirmwareSummary(exportedProperty: [
            "Manufacturer": "AULA", "Serial": "F87-1", "VendorSource": "usb", "VendorId": "0x0c45",
            "ProductId": "0x8009", "ProductVersion": "0x0105", "VendorName": "Microdia",
            "ReadAt": "2025-11-29T12:38:42Z", "Notes": "a\nb", "Unknown": "ignored",
        ])
        #expect(summary.strings == [.manufacturer: "AULA", .serial: "F87-1"])
        #expect(summary.vendorText == "Microdia (USB-IF 0x0c45)")
        #expect(summary.productText == "0x8009, version 0x0105")
        #expect(summary.notes == ["a", "b"])
        #expect(
            summary.readText(now: WallClockTime(secondsSince1970: Self.readAt.secondsSince1970 + 180))
                == "3 minutes ago (2025-11-29T12:38:42Z)")
    }

    @Test func summaryOfAnUnreadKeyboard() {
        let summary = FirmwareSummary(exportedProperty: [:])
        #expect(summary.vendorText == nil)
        #expect(summary.productText == nil)
        #expect(summary.readText(now: Self.readAt) == nil)
        #expect(summary.notes.isEmpty)
    }

    @Test func vendorWithoutName() {
        let summary = FirmwareSummary(exportedProperty: [
            "VendorSource": "bluetooth", "VendorId": "0x05f1", "ProductId": "0x0001",
        ])
        #expect(summary.vendorText == "Bluetooth SIG 0x05f1")
        #expect(summary.productText == "0x0001")
    }

    @Test(arguments: [
        (0.0, "just now"), (59.0, "just now"), (-30.0, "just now"), (60.0, "1 minute ago"), (179.0, "2 minutes ago"),
        (3_599.0, "59 minutes ago"), (3_600.0, "1 hour ago"), (7_300.0, "2 hours ago"), (86_400.0, "1 day ago"),
        (10 * 86_400.0, "10 days ago"),
    ])
    func age(seconds: Double, text: String) {
        #expect(
            FirmwareAge.text(
                readAt: Self.readAt, now: WallClockTime(secondsSince1970: Self.readAt.secondsSince1970 + Int64(seconds))
            ) == text)
    }
}
