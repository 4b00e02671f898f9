import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// BlueZ's battery providers: the simulated bluetoothd's `BatteryProviderManager1` against bluetoothd 5.66's rules
/// (src/battery.c), and kblinkd supplying the batteries BlueZ does not report itself.
@Suite("Battery providers", .serialized)
struct BatteryProviderTests {
    static let root = ObjectPath("/test/provider")
    static let adapter = ObjectPath("/org/bluez/hci0")

    /// A split keyboard whose services have no Battery Service BlueZ could read: BlueZ shows no battery.
    static var splitWithoutBatteryService: SimulatedDevice {
        var device = SimulatedDevice.corneSplit
        device.address = try! BluetoothAddress("EC:0C:4E:00:00:43")
        device.name = "Corne Vendor Battery"
        device.uuids = device.uuids.filter { !$0.lowercased().hasPrefix("0000180f") }
        device.battery = nil
        return device
    }

    static func batteryProvider(device: ObjectPath, percentage: UInt8, source: String) -> DBusInterface {
        DBusInterface(
            BlueZ.batteryProviderInterface,
            properties: [
                DBusProperty("Device", type: .objectPath, changes: .const, initial: .objectPath(device)),
                DBusProperty("Percentage", type: .byte, initial: .byte(percentage)),
                DBusProperty("Source", type: .string, changes: .const, initial: .string(source)),
            ])
    }

    static func battery(_ connection: BusConnection, _ device: ObjectPath) async -> (UInt8?, String?) {
        let proxy = DBusProxy(
            connection: connection, destination: BlueZ.service, path: device, interface: BlueZ.batteryInterface)
        let level = try? await proxy.property(MemberName("Percentage")).unwrapped.integerValue
        let source = try? await proxy.property(MemberName("Source")).unwrapped.stringValue
        return (level.map { UInt8($0) }, source ?? nil)
    }

    @Test("the simulated bluetoothd follows a provider as bluetoothd 5.66 does: one Battery1 per device")
    func simulatedManager() async throws {
        let bus = try await TestBus()
        let plain = Self.splitWithoutBatteryService
        let bluez = SimulatedBlueZ(bus: bus.busAddress, devices: [.corneSplit, plain])
        await bluez.setExperimental(true)
        try await bluez.start()
        defer { Task { await bluez.kill() } }
        let observer = try await bus.connect()
        let provider = try await bus.connect()
        let plainPath = plain.address.devicePath(adapter: Self.adapter)
        let cornePath = SimulatedDevice.corneSplit.address.devicePath(adapter: Self.adapter)
        await provider.addObjectManager(at: Self.root)
        try await provider.export(
            Self.batteryProvider(device: plainPath, percentage: 55, source: "test: right half"),
            at: Self.root.appending(element: "b1"))
        try await provider.export(
            Self.batteryProvider(device: cornePath, percentage: 12, source: "test: corne"),
            at: Self.root.appending(element: "b2"))
        try await provider.export(
            Self.batteryProvider(
                device: ObjectPath("/org/bluez/hci0/dev_00_00_00_00_00_01"), percentage: 1, source: "test: nobody"),
            at: Self.root.appending(element: "b3"))
        let manager = DBusProxy(
            connection: provider, destination: BlueZ.service, path: Self.adapter,
            interface: BlueZ.batteryProviderManagerInterface)
        try await manager.call(MemberName("RegisterBatteryProvider"), [.objectPath(Self.root)])

        #expect(await eventually { await Self.battery(observer, plainPath) == (55, "test: right half") })
        // The split keyboard keeps its own battery; a device BlueZ does not know gets none.
        #expect(await Self.battery(observer, cornePath) == (90, "GATT Battery Service"))
        #expect(await bluez.providedBatteryObjects == [plainPath: Self.root.appending(element: "b1")])

        // Changes follow; an object added later is read too.
        try await provider.setProperty(
            MemberName("Percentage"), of: BlueZ.batteryProviderInterface, at: Self.root.appending(element: "b1"),
            to: .byte(40))
        #expect(await eventually { await Self.battery(observer, plainPath).0 == 40 })

        // The same root again, or unregistering from another connection: refused as bluetoothd does.
        await #expect(throws: DBusError.self) {
            try await manager.call(MemberName("RegisterBatteryProvider"), [.objectPath(Self.root)])
        }
        do {
            try await DBusProxy(
                connection: observer, destination: BlueZ.service, path: Self.adapter,
                interface: BlueZ.batteryProviderManagerInterface
            ).call(MemberName("UnregisterBatteryProvider"), [.objectPath(Self.root)])
            Issue.record("another connection unregistered the provider")
        } catch let error as DBusError {
            #expect(error.name == BlueZ.Error.doesNotExist)
        }

        // The provider leaves the bus: its battery goes with it.
        await provider.close()
        #expect(await eventually { await Self.battery(observer, plainPath).0 == nil })
        #expect(await Self.battery(observer, cornePath) == (90, "GATT Battery Service"))
        await observer.close()
    }

    @Test("without experimental features there is no battery provider manager, and Battery1 has no Source")
    func withoutExperimental() async throws {
        let bus = try await TestBus()
        let bluez = SimulatedBlueZ(bus: bus.busAddress, devices: [.corneSplit])
        try await bluez.start()
        defer { Task { await bluez.kill() } }
        let connection = try await bus.connect()
        await #expect(throws: DBusError.self) {
            try await DBusProxy(
                connection: connection, destination: BlueZ.service, path: Self.adapter,
                interface: BlueZ.batteryProviderManagerInterface
            ).call(MemberName("RegisterBatteryProvider"), [.objectPath(Self.root)])
        }
        #expect(
            await Self.battery(connection, SimulatedDevice.corneSplit.address.devicePath(adapter: Self.adapter))
                == (90, nil))
        await connection.close()
    }

    @Test("kblinkd supplies the battery BlueZ cannot read (lowest half, named), never one BlueZ reports itself")
    func kblinkdSupplies() async throws {
        let vendor = Self.splitWithoutBatteryService
        try await withFirmwareDaemon(devices: [.corneSplit, vendor], experimental: true) { daemon in
            let service = try daemon.service
            #expect(try await daemon.waitForRead(vendor.address))
            let vendorPath = vendor.address.devicePath(adapter: Self.adapter)
            let expected = "kblink: right half (left 90 %, right 75 %)"
            #expect(await eventually { await service.suppliedBatteries().map(\.source) == [expected] })
            #expect(await service.suppliedBatteries().map(\.device) == [vendorPath])
            let observer = try await daemon.bus.connect()
            #expect(await eventually { await Self.battery(observer, vendorPath) == (75, expected) })
            // The split keyboard with a Battery Service keeps BlueZ's own battery.
            #expect(
                await Self.battery(observer, SimulatedDevice.corneSplit.address.devicePath(adapter: Self.adapter))
                    == (90, "GATT Battery Service"))

            // The right half drains: the supplied battery follows (once kblinkd follows its notifications).
            #expect(
                await eventually {
                    await daemon.bluez.gatt.isNotifying(.batteryLevel, occurrence: 1, for: vendor.address)
                })
            await daemon.bluez.gatt.setValue([30], of: .batteryLevel, occurrence: 1, for: vendor.address)
            #expect(await eventually { await Self.battery(observer, vendorPath).0 == 30 })
            await observer.close()
        }
    }
}
