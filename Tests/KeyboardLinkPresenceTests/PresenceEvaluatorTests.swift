import KeyboardLinkBlueZ
import Testing

@testable import KeyboardLinkPresence

@Suite struct PresenceEvaluatorTests {
    typealias Fixtures = InputDevicesFixtures

    static func bluetooth(_ address: String, _ name: String) throws -> ConnectedBluetoothKeyboard {
        ConnectedBluetoothKeyboard(address: try BluetoothAddress(address), name: name)
    }

    @Test func laptopAloneUnderEachPolicy() throws {
        let devices = try Fixtures.devices(Fixtures.laptop)
        let external = PresenceEvaluator(policy: .external).evaluate(evdevDevices: devices, bluetoothKeyboards: [])
        #expect(external.keyboards.isEmpty)
        #expect(!external.hardwareKeyboardAttached)

        let any = PresenceEvaluator(policy: .any).evaluate(evdevDevices: devices, bluetoothKeyboards: [])
        #expect(
            any.keyboards == [
                HardwareKeyboard(source: .evdev, id: "/dev/input/event3", name: "AT Translated Set 2 keyboard")
            ])
        #expect(any.hardwareKeyboardAttached)

        let bluetooth = PresenceEvaluator(policy: .bluetooth).evaluate(evdevDevices: devices, bluetoothKeyboards: [])
        #expect(!bluetooth.hardwareKeyboardAttached)
    }

    @Test func usbKeyboardCountsAsExternal() throws {
        let devices = try Fixtures.devices(Fixtures.laptop, Fixtures.usbKeyboard, Fixtures.mouse)
        let result = PresenceEvaluator().evaluate(evdevDevices: devices, bluetoothKeyboards: [])
        #expect(
            result.keyboards == [
                HardwareKeyboard(source: .evdev, id: "/dev/input/event5", name: "Logitech USB Keyboard")
            ])
        let bluetoothOnly = PresenceEvaluator(policy: .bluetooth).evaluate(
            evdevDevices: devices, bluetoothKeyboards: [])
        #expect(!bluetoothOnly.hardwareKeyboardAttached)
    }

    @Test func virtualKeyboardAndMouseNeverCount() throws {
        let devices = try Fixtures.devices(Fixtures.keydVirtualKeyboard, Fixtures.mouse)
        for policy in PresencePolicy.allCases {
            let result = PresenceEvaluator(policy: policy).evaluate(evdevDevices: devices, bluetoothKeyboards: [])
            #expect(!result.hardwareKeyboardAttached, "\(policy)")
        }
    }

    @Test func bluetoothKeyboardSeenTwiceIsListedOnceAsBluetooth() throws {
        // BlueZ says F4:12:FA:6B:33:9D is connected; the kernel lists it too (uhid, same address in Uniq).
        let devices = try Fixtures.devices(Fixtures.laptop, Fixtures.bluetoothLEKeyboard)
        let blueZ = [try Self.bluetooth("F4:12:FA:6B:33:9D", "Aula F87 (alias)")]
        for policy in PresencePolicy.allCases {
            let result = PresenceEvaluator(policy: policy).evaluate(evdevDevices: devices, bluetoothKeyboards: blueZ)
            let bluetoothEntry = HardwareKeyboard(source: .bluetooth, id: "F4:12:FA:6B:33:9D", name: "Aula F87 (alias)")
            #expect(result.keyboards.first == bluetoothEntry, "\(policy)")
            #expect(result.keyboards.filter { $0.name.hasPrefix("Aula") }.count == 1, "\(policy)")
        }
    }

    @Test func lowercaseUniqMatchesBlueZAddress() throws {
        // hidp prints the classic keyboard's address in lowercase; BlueZ reports it in uppercase.
        let devices = try Fixtures.devices(Fixtures.bluetoothClassicKeyboard)
        let blueZ = [try Self.bluetooth("C8:7F:54:0A:1B:2C", "K480")]
        let result = PresenceEvaluator().evaluate(evdevDevices: devices, bluetoothKeyboards: blueZ)
        #expect(result.keyboards == [HardwareKeyboard(source: .bluetooth, id: "C8:7F:54:0A:1B:2C", name: "K480")])
    }

    @Test func bluetoothKeyboardOnlyInEvdevCountsAsEvdev() throws {
        // The kernel already has the keyboard while BlueZ's model has not caught up (or another stack drives it).
        let devices = try Fixtures.devices(Fixtures.bluetoothLEKeyboard)
        let result = PresenceEvaluator(policy: .bluetooth).evaluate(evdevDevices: devices, bluetoothKeyboards: [])
        #expect(result.keyboards == [HardwareKeyboard(source: .evdev, id: "/dev/input/event21", name: "Aula F87")])
    }

    @Test func connectedBluetoothKeyboardsCountUnderEveryPolicy() throws {
        let blueZ = [try Self.bluetooth("C8:7F:54:0A:1B:2C", "K480")]
        for policy in PresencePolicy.allCases {
            let result = PresenceEvaluator(policy: policy).evaluate(evdevDevices: [], bluetoothKeyboards: blueZ)
            #expect(result.hardwareKeyboardAttached, "\(policy)")
        }
    }

    @Test func orderIsBluetoothByAddressThenEvdevByNode() throws {
        let devices = try Fixtures.devices(
            Fixtures.bluetoothLEKeyboard, Fixtures.usbKeyboard, Fixtures.laptop, Fixtures.keydVirtualKeyboard)
        let blueZ = [
            try Self.bluetooth("C8:7F:54:0A:1B:2C", "K480"), try Self.bluetooth("0C:00:00:00:00:01", "Other"),
            try Self.bluetooth("c8:7f:54:0a:1b:2c", "K480 again"),
        ]
        let result = PresenceEvaluator(policy: .any).evaluate(evdevDevices: devices, bluetoothKeyboards: blueZ)
        #expect(
            result.keyboards.map(\.description) == [
                "bluetooth 0C:00:00:00:00:01 \"Other\"",
                "bluetooth C8:7F:54:0A:1B:2C \"K480\"",
                "evdev /dev/input/event3 \"AT Translated Set 2 keyboard\"",
                "evdev /dev/input/event5 \"Logitech USB Keyboard\"",
                "evdev /dev/input/event21 \"Aula F87\"",
            ])
    }
}
