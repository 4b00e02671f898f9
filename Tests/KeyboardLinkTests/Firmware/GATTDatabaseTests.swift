import Testing

@testable import InsetCore
@testable import KBlinkAPI
@testable import KeyboardLinkBlueZ
@testable import KeyboardLinkClient
@testable import KeyboardLinkCommandLine
@testable import KeyboardLinkDBus
@testable import KeyboardLinkDrivers
@testable import KeyboardLinkFirmware
@testable import KeyboardLinkKeymap
@testable import KeyboardLinkPairing
@testable import KeyboardLinkPresence
@testable import KeyboardLinkService
@testable import KeyboardLinkSimulator
@testable import KeyboardLinkSupport

@Suite struct GATTDatabaseTests {
    static let device: ObjectPath = "/org/bluez/hci0/dev_EC_0C_4E_00_00_42"

    static func path(_ rest: String) -> ObjectPath { ObjectPath(validating: device.rawValue + "/" + rest)! }

    static func uuid(_ short: UInt16) -> DBusValue { .string(BluetoothUUID(uint16: short).description) }

    @Test func parsesPropertiesAsBlueZSendsThem() {
        let characteristic = GATTCharacteristic(
            path: Self.path("service0010/char0011"),
            properties: [
                "UUID": .variant(Self.uuid(0x2A19)),
                "Service": .variant(.objectPath(Self.path("service0010"))),
                "Flags": .variant(.array(.string, [.string("read"), .string("notify"), .string("brand-new-flag")])),
                "MTU": .variant(.uint16(247)), "Handle": .variant(.uint16(0x12)), "Notifying": .variant(.boolean(true)),
            ])
        #expect(characteristic?.uuid == .batteryLevel)
        #expect(characteristic?.flags == [.read, .notify])
        #expect(characteristic?.mtu == 247)
        #expect(characteristic?.handle == 0x12)
        #expect(characteristic?.isNotifying == true)
        // Without Service, the parent path is the service.
        let bare = GATTCharacteristic(path: Self.path("service0010/char0011"), properties: ["UUID": Self.uuid(0x2A19)])
        #expect(bare?.service == Self.path("service0010"))
        #expect(
            GATTCharacteristic(path: Self.path("service0010/char0011"), properties: ["UUID": .string("nope")]) == nil)
        #expect(GATTService(path: Self.path("service0010"), properties: [:]) == nil)
        let descriptor = GATTDescriptor(
            path: Self.path("service0010/char0011/desc0013"), properties: ["UUID": Self.uuid(0x2901)])
        #expect(descriptor?.characteristic == Self.path("service0010/char0011"))
    }

    @Test func sortsByHandleAndFindsThings() {
        let battery2 = GATTService(
            path: Self.path("service0030"), uuid: .batteryService, device: Self.device, handle: 0x30)
        let battery1 = GATTService(
            path: Self.path("service0020"), uuid: .batteryService, device: Self.device, handle: 0x20)
        let information = GATTService(
            path: Self.path("service0010"), uuid: .deviceInformation, device: Self.device, handle: 0x10)
        let level2 = GATTCharacteristic(
            path: Self.path("service0030/char0031"), uuid: .batteryLevel, service: battery2.path, flags: [.read])
        let level1 = GATTCharacteristic(
            path: Self.path("service0020/char0021"), uuid: .batteryLevel, service: battery1.path, flags: [.read])
        let serial = GATTCharacteristic(
            path: Self.path("service0010/char0011"), uuid: .serialNumber, service: information.path, flags: [.read])
        let label = GATTDescriptor(
            path: Self.path("service0030/char0031/desc0033"), uuid: .characteristicUserDescription,
            characteristic: level2.path)
        let database = GATTDatabase(
            device: Self.device, services: [battery2, information, battery1],
            characteristics: [level2, serial, level1],
            descriptors: [label])
        #expect(database.services == [information, battery1, battery2])
        #expect(database.characteristics(.batteryLevel) == [level1, level2])
        #expect(database.characteristics(of: battery2) == [level2])
        #expect(database.characteristic(.serialNumber, inService: .deviceInformation) == serial)
        #expect(database.characteristic(.serialNumber, inService: .batteryService) == nil)
        #expect(database.descriptor(.characteristicUserDescription, of: level2) == label)
        #expect(database.descriptor(.characteristicUserDescription, of: level1) == nil)
    }

    @Test func flagNamesRoundTrip() {
        let names = ["read", "write-without-response", "write", "indicate", "encrypt-read"]
        let flags = GATTCharacteristicFlags(bluezNames: names + ["unknown"])
        #expect(flags == [.read, .writeWithoutResponse, .write, .indicate, .encryptRead])
        #expect(flags.bluezNames == names)
        #expect(flags.canNotify)
        #expect(!GATTCharacteristicFlags([.read, .write]).canNotify)
    }

    @Test func readerJobsCoverEveryValueOnce() {
        let information = GATTService(
            path: Self.path("service0010"), uuid: .deviceInformation, device: Self.device, handle: nil)
        let battery = GATTService(
            path: Self.path("service0020"), uuid: .batteryService, device: Self.device, handle: nil)
        func characteristic(_ name: String, _ uuid: BluetoothUUID, _ service: GATTService) -> GATTCharacteristic {
            GATTCharacteristic(path: Self.path(name), uuid: uuid, service: service.path, flags: [.read])
        }
        let database = GATTDatabase(
            device: Self.device, services: [information, battery],
            characteristics: [
                characteristic("service0010/char0011", .manufacturerName, information),
                characteristic("service0010/char0013", .manufacturerName, information),  // a duplicate: read once
                characteristic("service0010/char0015", .pnpID, information),
                // System ID: not read.
                characteristic("service0010/char0017", BluetoothUUID(uint16: 0x2A23), information),
                characteristic("service0020/char0021", .batteryLevel, battery),
                characteristic("service0020/char0024", .batteryLevel, battery),
            ],
            descriptors: [
                GATTDescriptor(
                    path: Self.path("service0020/char0024/desc0026"), uuid: .characteristicUserDescription,
                    characteristic: Self.path("service0020/char0024"))
            ])
        let (jobs, batteries) = FirmwareReader.jobs(database)
        #expect(
            jobs.map(\.label) == [
                "manufacturer name", "PnP ID", "battery level 1", "battery level 2", "battery level 2 description",
            ])
        #expect(batteries.map(\.path.lastElement) == ["char0021", "char0024"])
        #expect(
            FirmwareReader.jobs(GATTDatabase(device: Self.device, services: [], characteristics: [], descriptors: []))
                .jobs.isEmpty)
    }
}
