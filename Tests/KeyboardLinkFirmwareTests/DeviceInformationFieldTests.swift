import KeyboardLinkBlueZ
import Testing

@testable import KeyboardLinkFirmware

@Suite struct DeviceInformationFieldTests {
    @Test(arguments: [
        (DeviceInformationField.manufacturer, UInt16(0x2A29), "Manufacturer"),
        (.model, 0x2A24, "Model"),
        (.serial, 0x2A25, "Serial"),
        (.firmwareRevision, 0x2A26, "FirmwareRevision"),
        (.hardwareRevision, 0x2A27, "HardwareRevision"),
        (.softwareRevision, 0x2A28, "SoftwareRevision"),
    ])
    func uuidsAndKeys(field: DeviceInformationField, uuid: UInt16, key: String) {
        #expect(field.uuid.uint16Value == uuid)
        #expect(DeviceInformationField(uuid: BluetoothUUID(uint16: uuid)) == field)
        #expect(field.rawValue == key)
    }

    @Test func otherUUIDsAreNotFields() {
        #expect(DeviceInformationField(uuid: .pnpID) == nil)
        #expect(DeviceInformationField(uuid: .batteryLevel) == nil)
    }

    @Test func plainText() {
        let decoded = DeviceInformationField.firmwareRevision.decode(Array("1.2.3".utf8))
        #expect(decoded == DecodedField(value: "1.2.3", note: nil))
    }

    @Test func trailingNULsAreTrimmed() {
        let decoded = DeviceInformationField.model.decode(Array("F87".utf8) + [0, 0, 0, 0])
        #expect(decoded.value == "F87")
        #expect(decoded.note == nil)
    }

    @Test func garbageAfterTheTerminatorIsDropped() {
        let decoded = DeviceInformationField.manufacturer.decode(Array("Aula".utf8) + [0, 0xFF, 0x41])
        #expect(decoded.value == "Aula")
        #expect(decoded.note == nil)
    }

    @Test func surroundingSpacesAreTrimmed() {
        #expect(DeviceInformationField.model.decode(Array("  VGN 98Pro \r\n".utf8)).value == "VGN 98Pro")
    }

    @Test func invalidUTF8GivesALossyValueAndANote() {
        // "SN" 0xC3 0x28 "42": 0xC3 starts a two-byte sequence that 0x28 does not continue.
        let decoded = DeviceInformationField.serial.decode([0x53, 0x4E, 0xC3, 0x28, 0x34, 0x32])
        #expect(decoded.value == "SN\u{FFFD}(42")
        #expect(decoded.note == "serial number is not valid UTF-8")
    }

    @Test func validMultibyteUTF8IsKept() {
        let decoded = DeviceInformationField.manufacturer.decode(Array("Dürer Tastaturen".utf8))
        #expect(decoded.value == "Dürer Tastaturen")
        #expect(decoded.note == nil)
    }

    @Test func controlCharactersAreReplaced() {
        let decoded = DeviceInformationField.model.decode(Array("K\u{1B}[2J1".utf8))
        #expect(decoded.value == "K\u{FFFD}[2J1")
        #expect(decoded.note == "model number contains control characters")
    }

    @Test func emptyOrAllNULIsNoValueWithoutNote() {
        #expect(DeviceInformationField.serial.decode([]) == DecodedField(value: nil, note: nil))
        #expect(DeviceInformationField.serial.decode([0, 0, 0]) == DecodedField(value: nil, note: nil))
        #expect(DeviceInformationField.serial.decode(Array("   ".utf8)) == DecodedField(value: nil, note: nil))
    }
}
