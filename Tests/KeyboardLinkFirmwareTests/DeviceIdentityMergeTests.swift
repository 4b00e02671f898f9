import Testing

@testable import KeyboardLinkFirmware

@Suite struct DeviceIdentityMergeTests {
    let logitech = DeviceIdentity(source: .usb, vendorID: 0x046D, productID: 0xC54D, productVersion: 0x0100)
    let apple = DeviceIdentity(source: .bluetooth, vendorID: 0x004C, productID: 0x0267, productVersion: 0x0110)

    @Test func nothingKnown() {
        #expect(DeviceIdentity.merge(pnpID: nil, modalias: nil) == DecodedField(value: nil, note: nil))
    }

    @Test func onlyOneSource() {
        #expect(DeviceIdentity.merge(pnpID: logitech, modalias: nil) == DecodedField(value: logitech))
        #expect(DeviceIdentity.merge(pnpID: nil, modalias: apple) == DecodedField(value: apple))
    }

    @Test func agreementGivesNoNote() {
        #expect(DeviceIdentity.merge(pnpID: logitech, modalias: logitech) == DecodedField(value: logitech))
    }

    @Test func pnpIDWinsAndTheDisagreementIsNoted() {
        let merged = DeviceIdentity.merge(pnpID: logitech, modalias: apple)
        #expect(merged.value == logitech)
        #expect(
            merged.note
                == "PnP ID (usb:v046DpC54Dd0100) disagrees with Modalias (bluetooth:v004Cp0267d0110); using the PnP ID")
    }

    @Test func aVersionDifferenceIsADisagreement() {
        var newer = logitech
        newer.productVersion = 0x0101
        let merged = DeviceIdentity.merge(pnpID: newer, modalias: logitech)
        #expect(merged.value?.productVersion == 0x0101)
        #expect(merged.note != nil)
    }
}
