import Testing

@testable import KeyboardLinkFirmware

@Suite struct ModaliasTests {
    @Test(arguments: [
        ("usb:v046DpC54Dd0100", VendorIDSource.usb, UInt16(0x046D), UInt16(0xC54D), UInt16(0x0100)),
        ("usb:v046dpc54dd0100", .usb, 0x046D, 0xC54D, 0x0100),
        ("bluetooth:v004Cp0267d0110", .bluetooth, 0x004C, 0x0267, 0x0110),
        ("bluetooth:v05acp0256d0001", .bluetooth, 0x05AC, 0x0256, 0x0001),
        ("Bluetooth:V1D50P6115D1234", .bluetooth, 0x1D50, 0x6115, 0x1234),
        // The kernel's USB modalias carries device class fields after the version.
        ("usb:v046DpC52Bd1201dc00dsc00dp00ic03isc01ip01in00", .usb, 0x046D, 0xC52B, 0x1201),
    ])
    func parses(text: String, source: VendorIDSource, vendor: UInt16, product: UInt16, version: UInt16) throws {
        let identity = try DeviceIdentity(modalias: text)
        #expect(
            identity == DeviceIdentity(source: source, vendorID: vendor, productID: product, productVersion: version))
    }

    @Test func printsBlueZForm() throws {
        let identity = DeviceIdentity(source: .usb, vendorID: 0x046D, productID: 0xC54D, productVersion: 0x0100)
        #expect(identity.modalias == "usb:v046DpC54Dd0100")
        let bt = DeviceIdentity(source: .bluetooth, vendorID: 0x4C, productID: 0x267, productVersion: 0x110)
        #expect(bt.modalias == "bluetooth:v004Cp0267d0110")
        #expect(try DeviceIdentity(modalias: bt.modalias) == bt)
    }

    @Test(arguments: [
        ("", "no \"bluetooth:\" or \"usb:\" prefix"),
        ("v046Dp0001d0001", "no \"bluetooth:\" or \"usb:\" prefix"),
        ("pci:v00008086d00001234", "unknown prefix \"pci\""),
        ("usb:", "expected \"v\" before the vendor ID"),
        ("usb:046DpC54Dd0100", "expected \"v\" before the vendor ID"),
        ("usb:v46DpC54Dd0100", "the vendor ID is not 4 hex digits"),
        ("usb:v046GpC54Dd0100", "the vendor ID is not 4 hex digits"),
        ("usb:v046DxC54Dd0100", "expected \"p\" before the product ID"),
        ("usb:v046DpC54Dd010", "the version is not 4 hex digits"),
        ("usb:v046DpC54D", "expected \"d\" before the version"),
        ("bluetooth:v004Cp0267d0110x", "unexpected text after the version"),
        ("bluetooth:v004Cp0267d0110dc00", "unexpected text after the version"),
        ("usb:v046DpC54Dd0100 ", "unexpected text after the version"),
    ])
    func malformedGivesANote(text: String, reason: String) throws {
        let error = try #require(throws: FirmwareValueError.self) { try DeviceIdentity(modalias: text) }
        #expect(error == .modalias(text: text, reason: reason))
        #expect(error.description.contains("is not bluetooth:vXXXXpXXXXdXXXX or usb:vXXXXpXXXXdXXXX"))
    }
}
