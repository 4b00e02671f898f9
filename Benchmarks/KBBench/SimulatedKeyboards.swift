import KeyboardLink

/// Many simulated Bluetooth keyboards with the same addresses and names as ``BlueZDevices``.
enum SimulatedKeyboards {
    /// The HID (classic Bluetooth keyboard) service UUID.
    static let hidUUID = "00001124-0000-1000-8000-00805f9b34fb"

    /// `count` paired keyboards, `AA:BB:CC:00:00:00` onwards, classified as keyboards by their Class of Device,
    /// icon and HID UUID; every fifth one is connected.
    static func make(_ count: Int) throws -> [SimulatedDevice] {
        try (0..<count).map { index in
            guard let address = BluetoothAddress(validating: BlueZDevices.address(index)) else {
                throw BenchError("bad simulated address \(BlueZDevices.address(index))")
            }
            var device = SimulatedDevice(address: address, name: name(index))
            device.classOfDevice = 0x0025_40
            device.icon = "input-keyboard"
            device.uuids = [hidUUID]
            device.modalias = "usb:v05ACp0256d0110"
            device.paired = true
            device.trusted = index % 2 == 0
            device.connected = index % 5 == 0
            device.battery = UInt8(index % 101)
            return device
        }
    }

    /// The name of keyboard `index`: `Keyboard 0042`.
    static func name(_ index: Int) -> String {
        "Keyboard " + String(index).leftPadded(4)
    }
}
