import KeyboardLinkBlueZ
import KeyboardLinkDBus
import Testing

@testable import KeyboardLinkService

/// With several adapters, bluetoothd has one device object per adapter that saw a keyboard (each discovering
/// adapter creates its own, unpaired). The real-stack rig (docs/real-bluez.md) met it: kblinkd followed a stray
/// unpaired copy and `kblink pair` reported the keyboard "not paired after all" although BlueZ had paired it.
@Suite struct DuplicateDeviceTests {
    static func device(_ adapter: String, paired: Bool = false, connected: Bool = false) throws -> BlueZDevice {
        let path = try ObjectPath("/org/bluez/\(adapter)/dev_00_AA_01_02_00_02")
        let properties: [String: DBusValue] = [
            "Address": .string("00:AA:01:02:00:02"), "Adapter": .objectPath(try ObjectPath("/org/bluez/\(adapter)")),
            "Paired": .boolean(paired), "Connected": .boolean(connected), "Appearance": .uint16(0x03C1),
        ]
        return try #require(BlueZDevice(path: path, interfaces: [BlueZ.deviceInterface.rawValue: properties]))
    }

    @Test func pairedCopyWinsWhateverTheOrder() throws {
        let paired = try Self.device("hci1", paired: true, connected: true)
        let strays = try ["hci3", "hci4", "hci0"].map { try Self.device($0) }
        for devices in [[paired] + strays, strays + [paired], [strays[0], paired, strays[2], strays[1]]] {
            #expect(KeyboardRegistry.oneDevicePerAddress(devices) == [paired])
        }
    }

    @Test func connectedThenFirstAdapterWin() throws {
        let connected = try Self.device("hci5", connected: true)
        let first = try Self.device("hci2")
        #expect(KeyboardRegistry.oneDevicePerAddress([first, connected]) == [connected])
        let later = try Self.device("hci7")
        #expect(KeyboardRegistry.oneDevicePerAddress([later, first]) == [first])
    }
}
