import Testing

@testable import KeyboardLinkBlueZ

@Suite struct KeyboardClassifierTests {
    private static let hid = "00001124-0000-1000-8000-00805f9b34fb"
    private static let hogp = "00001812-0000-1000-8000-00805f9b34fb"
    private static let a2dpSink = "0000110b-0000-1000-8000-00805f9b34fb"
    private static let handsFree = "0000111e-0000-1000-8000-00805f9b34fb"
    private static let deviceInformation = "0000180a-0000-1000-8000-00805f9b34fb"

    private func classify(
        cod: UInt32? = nil, appearance: UInt16? = nil, icon: String? = nil, uuids: [String] = []
    ) -> KeyboardClassification {
        KeyboardClassifier.classify(
            DeviceTraits(classOfDevice: cod, appearance: appearance, icon: icon, uuidStrings: uuids))
    }

    @Test func classicKeyboardByClassOfDevice() {
        // A Logitech K480-style classic keyboard: Class 0x002540, icon derived by BlueZ, HID service.
        let result = classify(cod: 0x002540, icon: "input-keyboard", uuids: [Self.hid])
        #expect(result.verdict == .keyboard)
        #expect(result.isKeyboard)
        #expect(result.reason.hasPrefix("keyboard ("))
        #expect(result.reason.contains("Class 0x002540: peripheral, keyboard bit"))
    }

    @Test func classOfDeviceAloneIsEnough() {
        #expect(classify(cod: 0x002540).verdict == .keyboard)
    }

    @Test func keyboardPointerComboCounts() {
        // Class 0x0025C0: peripheral with both the keyboard and pointing bits (BlueZ gives it no icon).
        let result = classify(cod: 0x0025C0, uuids: [Self.hid])
        #expect(result.verdict == .keyboardWithPointer)
        #expect(result.isKeyboard)
        #expect(result.reason.contains("keyboard bit"))
        #expect(result.reason.contains("pointing-device bit"))
    }

    @Test func phoneDoesNotCount() {
        // 0x5A020C: smartphone (major 0x02) with networking, capturing, object transfer and telephony services.
        let result = classify(cod: 0x5A020C, icon: "phone", uuids: [Self.handsFree, Self.hogp])
        #expect(result.verdict == .otherDevice)
        #expect(!result.isKeyboard)
        #expect(result.reason.contains("phone"))
    }

    @Test func mouseDoesNotCount() {
        let result = classify(cod: 0x002580, icon: "input-mouse", uuids: [Self.hid])
        #expect(result.verdict == .otherDevice)
        #expect(!result.isKeyboard)
        #expect(result.reason.contains("pointing-device bit"))
    }

    @Test func headsetDoesNotCountEvenWithHIDService() {
        // 0x240404: audio/video (major 0x04), wearable headset, with a HID service for its buttons.
        let result = classify(cod: 0x240404, icon: "audio-headset", uuids: [Self.a2dpSink, Self.handsFree, Self.hid])
        #expect(result.verdict == .otherDevice)
        #expect(!result.isKeyboard)
        #expect(result.reason.contains("audio/video"))
    }

    @Test func gamepadDoesNotCount() {
        // 0x002508: peripheral, no keyboard or pointing bit, subtype 2 (gamepad).
        let result = classify(cod: 0x002508, icon: "input-gaming", uuids: [Self.hid])
        #expect(result.verdict == .otherDevice)
        #expect(result.reason.contains("gamepad"))
    }

    @Test func bleKeyboardByAppearance() {
        let result = classify(appearance: 0x03C1, icon: "input-keyboard", uuids: [Self.hogp, Self.deviceInformation])
        #expect(result.verdict == .keyboard)
        #expect(result.reason.contains("Appearance 0x03c1 (keyboard)"))
    }

    @Test func bleMouseByAppearanceDoesNotCount() {
        let result = classify(appearance: 0x03C2, icon: "input-mouse", uuids: [Self.hogp])
        #expect(result.verdict == .otherDevice)
        #expect(!result.isKeyboard)
    }

    @Test func bleGamepadByAppearanceDoesNotCount() {
        #expect(classify(appearance: 0x03C4, uuids: [Self.hogp]).verdict == .otherDevice)
    }

    @Test func hogpAloneCountsAsInputDevice() {
        let result = classify(uuids: [Self.hogp])
        #expect(result.verdict == .inputDevice)
        #expect(result.isKeyboard)
        #expect(result.reason.contains("HID over GATT"))
        #expect(result.reason.contains("nothing says it is a mouse or gamepad"))
    }

    @Test func genericHIDAppearanceCountsAsInputDevice() {
        #expect(classify(appearance: 0x03C0, uuids: [Self.hogp]).verdict == .inputDevice)
    }

    @Test func uncategorizedPeripheralWithHIDCountsAsInputDevice() {
        // 0x000500: peripheral, no keyboard/pointing bit, subtype 0.
        #expect(classify(cod: 0x000500, uuids: [Self.hid]).verdict == .inputDevice)
    }

    @Test func keyboardHintWinsOverMouseHint() {
        // A keyboard whose firmware reports a mouse appearance but the keyboard icon: treated as a combo.
        let result = classify(appearance: 0x03C2, icon: "input-keyboard", uuids: [Self.hogp])
        #expect(result.verdict == .keyboardWithPointer)
    }

    @Test func nothingKnownDoesNotCount() {
        let result = classify(uuids: [Self.deviceInformation])
        #expect(result.verdict == .unknown)
        #expect(!result.isKeyboard)
        #expect(result.hints.isEmpty)
    }

    @Test func zeroClassAndAppearanceSayNothing() {
        #expect(classify(cod: 0, appearance: 0, icon: "").verdict == .unknown)
        #expect(classify(cod: 0x001F00, uuids: [Self.hid]).verdict == .inputDevice)
    }

    @Test func uuidsAreComparedAsUUIDsNotText() {
        let uppercase = "00001812-0000-1000-8000-00805F9B34FB"
        #expect(classify(uuids: [uppercase]).verdict == .inputDevice)
        #expect(classify(uuids: ["not a uuid"]).verdict == .unknown)
    }

    @Test func hintsListEveryProperty() {
        let result = classify(cod: 0x002540, appearance: 0x03C1, icon: "input-keyboard", uuids: [Self.hid, Self.hogp])
        #expect(result.hints.map(\.source) == [.classOfDevice, .appearance, .icon, .serviceUUID, .serviceUUID])
        #expect(result.hints.map(\.meaning) == [.keyboard, .keyboard, .keyboard, .input, .input])
    }

    @Test(arguments: [
        (UInt32(0x002540), UInt8(0x05), true, false),
        (UInt32(0x0025C0), UInt8(0x05), true, true),
        (UInt32(0x002580), UInt8(0x05), false, true),
        (UInt32(0x5A020C), UInt8(0x02), false, false),
        (UInt32(0x240404), UInt8(0x04), false, false),
        // The keyboard bit only means "keyboard" for a peripheral: 0x000140 is a computer with minor 0x10.
        (UInt32(0x000140), UInt8(0x01), false, false),
    ])
    func classOfDeviceFields(raw: UInt32, major: UInt8, keyboard: Bool, pointer: Bool) {
        let cod = ClassOfDevice(raw)
        #expect(cod.majorClass.rawValue == major)
        #expect(cod.hasKeyboardBit == keyboard)
        #expect(cod.hasPointingBit == pointer)
    }
}
