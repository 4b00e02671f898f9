import KeyboardLinkBlueZ
import Testing

@testable import KeyboardLinkPresence

/// An evdev node of a Bluetooth keyboard that BlueZ reports disconnected (BlueZ keeps an LE keyboard's uhid device
/// across disconnections) does not count, under any policy.
@Suite struct DisconnectedBluetoothPresenceTests {
    typealias Fixtures = InputDevicesFixtures

    @Test func uhidNodeOfDisconnectedKeyboardDoesNotCount() throws {
        let devices = try Fixtures.devices(Fixtures.bluetoothLEKeyboard)
        let address = try #require(BluetoothAddress(validating: "F4:12:FA:6B:33:9D"))
        for policy in PresencePolicy.allCases {
            let result = PresenceEvaluator(policy: policy).evaluate(
                evdevDevices: devices, bluetoothKeyboards: [], disconnectedBluetoothAddresses: [address])
            #expect(!result.hardwareKeyboardAttached, "\(policy)")
            #expect(result.keyboards.isEmpty, "\(policy)")
        }
    }

    @Test func otherDisconnectedDevicesLeaveTheNodeCounted() throws {
        let devices = try Fixtures.devices(Fixtures.bluetoothLEKeyboard)
        let other = try #require(BluetoothAddress(validating: "F4:12:FA:6B:33:9E"))
        let result = PresenceEvaluator().evaluate(
            evdevDevices: devices, bluetoothKeyboards: [], disconnectedBluetoothAddresses: [other])
        #expect(result.keyboards.map(\.source) == [.evdev])
    }
}
