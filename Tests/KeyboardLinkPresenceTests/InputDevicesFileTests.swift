import KeyboardLinkBlueZ
import Testing

@testable import KeyboardLinkPresence

@Suite struct InputDevicesFileTests {
    typealias Fixtures = InputDevicesFixtures

    @Test func laptopFields() throws {
        let devices = try Fixtures.devices(Fixtures.laptop)
        #expect(devices.map(\.name) == ["Power Button", "Lid Switch", "AT Translated Set 2 keyboard", "Video Bus"])
        let keyboard = devices[2]
        #expect(keyboard.bus == .i8042)
        #expect(keyboard.vendor == 0x0001)
        #expect(keyboard.product == 0x0001)
        #expect(keyboard.version == 0xAB83)
        #expect(keyboard.phys == "isa0060/serio0/input0")
        #expect(keyboard.sysfsPath == "/devices/platform/i8042/serio0/input/input3")
        #expect(keyboard.uniq == "")
        #expect(keyboard.handlers == ["sysrq", "kbd", "leds", "event3"])
        #expect(keyboard.eventNode == "event3")
        #expect(keyboard.devicePath == "/dev/input/event3")
        #expect(keyboard.bitmaps["LED"] == CapabilityBitmap(words: [7]))
        #expect(Set(keyboard.bitmaps.keys) == ["PROP", "EV", "KEY", "MSC", "LED"])
    }

    @Test func keyboardRule() throws {
        let devices = try Fixtures.devices(
            Fixtures.laptop, Fixtures.usbKeyboard, Fixtures.bluetoothClassicKeyboard, Fixtures.bluetoothLEKeyboard,
            Fixtures.keydVirtualKeyboard, Fixtures.mouse)
        let keyboards = devices.filter(\.isKeyboard).map(\.name)
        #expect(
            keyboards == [
                "AT Translated Set 2 keyboard", "Logitech USB Keyboard", "Logitech K480", "Aula F87",
                "keyd virtual keyboard",
            ])
    }

    @Test func keyBitsWithoutEVKeyIsNotAKeyboard() throws {
        var device = try #require(try Fixtures.devices(Fixtures.usbKeyboard).first)
        #expect(device.isKeyboard)
        device.bitmaps["EV"] = try CapabilityBitmap(parsing: "120011")
        #expect(!device.isKeyboard)
        device.bitmaps["EV"] = nil
        #expect(!device.isKeyboard)
    }

    @Test func oneMissingKeyAmongOneToThirtyOneIsNotAKeyboard() throws {
        var device = InputDevice(bus: .usb, bitmaps: ["EV": CapabilityBitmap(words: [0b11])])
        device.bitmaps["KEY"] = CapabilityBitmap(words: [0xFFFF_FFFE])
        #expect(device.isKeyboard)
        device.bitmaps["KEY"] = CapabilityBitmap(words: [0xFFFF_FFFA])  // KEY_2 (bit 3) missing
        #expect(!device.isKeyboard)
        device.bitmaps["KEY"] = CapabilityBitmap(words: [0x7FFF_FFFE])  // KEY_S (bit 31) missing
        #expect(!device.isKeyboard)
    }

    @Test func virtualDevices() throws {
        let devices = try Fixtures.devices(
            Fixtures.laptop, Fixtures.bluetoothLEKeyboard, Fixtures.keydVirtualKeyboard)
        #expect(devices.filter(\.isVirtual).map(\.name) == ["keyd virtual keyboard"])
        // A uhid device that is not on the Bluetooth bus is software, not BlueZ.
        let fake = InputDevice(bus: .usb, sysfsPath: "/devices/virtual/misc/uhid/0003:1234:5678.0009/input/input40")
        #expect(fake.isVirtual)
    }

    @Test func bluetoothAddressFromUniqInEitherCase() throws {
        let devices = try Fixtures.devices(Fixtures.bluetoothClassicKeyboard, Fixtures.bluetoothLEKeyboard)
        #expect(
            devices.map(\.bluetoothAddress) == [
                try BluetoothAddress("C8:7F:54:0A:1B:2C"), try BluetoothAddress("F4:12:FA:6B:33:9D"),
            ])
        #expect(devices.map(\.bus) == [.bluetooth, .bluetooth])
        let usb = try Fixtures.devices(Fixtures.usbKeyboard)
        #expect(usb.first?.bluetoothAddress == nil)
    }

    @Test func emptyAndBlankTextHasNoDevices() throws {
        #expect(try InputDevicesFile.parse("").isEmpty)
        #expect(try InputDevicesFile.parse("\n\n  \n").isEmpty)
    }

    @Test func lastBlockWithoutBlankLine() throws {
        let text = "I: Bus=0003 Vendor=046d Product=c31c Version=0110\nN: Name=\"K120\""
        #expect(try InputDevicesFile.parse(text).map(\.name) == ["K120"])
    }

    @Test func quotesInsideNamesAreKept() throws {
        let text = "I: Bus=0003 Vendor=0001 Product=0002 Version=0003\nN: Name=\"The \"Best\" Keyboard\"\n"
        #expect(try InputDevicesFile.parse(text).first?.name == "The \"Best\" Keyboard")
    }

    @Test func unknownLineKindsAreIgnored() throws {
        let text = "I: Bus=0003 Vendor=0001 Product=0002 Version=0003\nX: Future=thing\nN: Name=\"K\"\n"
        #expect(try InputDevicesFile.parse(text).first?.name == "K")
    }

    @Test func handlersWithoutEventNode() throws {
        let device = InputDevice(bus: .usb, handlers: ["kbd", "eventx", "event", "js0"])
        #expect(device.eventNode == nil)
        #expect(device.devicePath == nil)
    }

    @Test(arguments: [
        ("I: Bus=0003 Vendor=046d Product=c31c\nN: Name=\"K\"\n", 1, "I: line without Version="),
        ("I: Bus=00003 Vendor=046d Product=c31c Version=0110\n", 1, "\"Bus=00003\" is not KEY=4 hex digits"),
        ("I: Bus=zz Vendor=046d Product=c31c Version=0110\n", 1, "\"Bus=zz\" is not KEY=4 hex digits"),
        ("I: Bus Vendor=046d Product=c31c Version=0110\n", 1, "\"Bus\" is not KEY=hex"),
        ("N: Name=\"orphan\"\nP: Phys=x\n", 1, "device block without an I: line"),
        ("I: Bus=0003 Vendor=046d Product=c31c Version=0110\nno colon here\n", 2, "expected \"X: ...\""),
        ("I: Bus=0003 Vendor=046d Product=c31c Version=0110\nB: KEY=12 zz\n", 2, "B: KEY: invalid capability bitmap"),
        ("I: Bus=0003 Vendor=046d Product=c31c Version=0110\nB: =12\n", 2, "a B: line is NAME=bitmap"),
    ])
    func malformedBlocks(text: String, line: Int, reason: String) throws {
        let error = try #require(throws: InputDevicesParseError.self) { try InputDevicesFile.parse(text) }
        #expect(error.line == line)
        #expect(error.reason.contains(reason), "\(error.reason)")
        #expect(error.description.hasPrefix("input devices list, line \(line): "))
    }

    @Test func malformedBlockIsSkippedWhenAskedTo() throws {
        let broken = "I: Bus=0003 Vendor=046d Product=c31c\nN: Name=\"broken\"\n\n"
        let text = Fixtures.file(Fixtures.usbKeyboard, broken, Fixtures.mouse)
        #expect(throws: InputDevicesParseError.self) { try InputDevicesFile.parse(text) }
        let parsed = InputDevicesFile.parseSkippingMalformed(text)
        #expect(
            parsed.devices.map(\.name) == [
                "Logitech USB Keyboard", "Logitech USB Keyboard Consumer Control", "Logitech USB Optical Mouse",
            ])
        #expect(parsed.errors.count == 1)
        #expect(parsed.errors.first?.line == 26)
    }
}
