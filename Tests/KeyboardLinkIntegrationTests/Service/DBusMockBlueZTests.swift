import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The same service and CLI against python-dbusmock's `bluez5` template, a BlueZ mock that others wrote: a
/// cross-check of our simulator's assumptions.
@Suite("kblinkd and kblink against python-dbusmock's bluez5 template")
struct DBusMockBlueZTests {
    static let mockInterface = InterfaceName("org.bluez.Mock")
    static let address = "AA:BB:CC:DD:EE:01"
    static let devicePath = ObjectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01")

    @Test("list, status and watch follow a keyboard added, given keyboard properties, connected and disconnected")
    func followsTheMock() async throws {
        let bus = try await TestBus()
        let mock = try ChildProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "bluez5"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        defer { mock.signal(SIGKILL) }
        let connection = try await bus.connect()
        #expect(
            try await eventually { try await connection.nameOwner(of: BlueZ.service) != nil })

        func callMock(_ member: String, _ arguments: [DBusValue]) async throws {
            try await connection.call(
                destination: BlueZ.service, path: .root, interface: Self.mockInterface, member: try MemberName(member),
                arguments)
        }
        try await callMock("AddAdapter", [.string("hci0"), .string("kblink-test")])

        let serviceConnection = try await bus.connect()
        let service = KeyboardLinkService(
            connection: serviceConnection, options: .init(stateDirectory: "/tmp"), log: { _, _ in })
        try await service.start()
        let client = try await KBlinkClient.connect(to: bus.busAddress)
        let harnessArguments = ["--bus", bus.address]
        let watch = try ChildProcess(DaemonHarness.binary("kblink"), ["watch", "--json"] + harnessArguments)
        defer { watch.signal(SIGKILL) }
        // watch --json prints nothing until an event: act once it has subscribed to kblinkd's signals.
        try await waitForSubscription(
            onBus: bus.address, process: watch.process.processIdentifier, containing: "path_namespace")

        try await callMock("AddDevice", [.string("hci0"), .string(Self.address), .string("Mock Keyboard")])
        // A device with no keyboard traits is not a keyboard yet.
        #expect(try await client.keyboards().isEmpty)
        try await connection.call(
            destination: BlueZ.service, path: Self.devicePath,
            interface: InterfaceName("org.freedesktop.DBus.Mock"),
            member: MemberName("UpdateProperties"),
            [
                .string("org.bluez.Device1"),
                .dictionary(
                    key: .string, value: .variant,
                    [
                        DBusDictionaryEntry(key: .string("Icon"), value: .variant(.string("input-keyboard"))),
                        DBusDictionaryEntry(key: .string("Class"), value: .variant(.uint32(0x002540))),
                        DBusDictionaryEntry(
                            key: .string("UUIDs"),
                            value: .variant(.array(.string, [.string("00001124-0000-1000-8000-00805f9b34fb")]))),
                    ]),
            ])
        #expect(try await eventually { try await client.keyboards().map(\.address) == [Self.address] })

        let list = try await runProcess(DaemonHarness.binary("kblink"), ["list", "--json"] + harnessArguments)
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("\"alias\":\"Mock Keyboard\""))
        #expect(list.standardOutput.contains("\"connected\":false"))

        try await callMock("ConnectDevice", [.string("hci0"), .string(Self.address)])
        #expect(try await eventually { try await client.status().hardwareKeyboardAttached })
        let status = try await runProcess(DaemonHarness.binary("kblink"), ["status", "--json"] + harnessArguments)
        #expect(status.standardOutput.contains("\"hardwareKeyboardAttached\":true"))
        #expect(status.standardOutput.contains("\"id\":\"\(Self.address)\""))

        try await callMock("DisconnectDevice", [.string("hci0"), .string(Self.address)])
        #expect(try await eventually { try await !client.status().hardwareKeyboardAttached })

        // kblink watch saw the keyboard appear, connect and disconnect.
        #expect(await eventually { watch.standardOutput.contains("\"Connected\":false") })
        let events = watch.standardOutput
        #expect(events.contains("\"event\":\"added\""))
        #expect(events.contains("\"Connected\":true"))
        #expect(events.contains("\"HardwareKeyboardAttached\":true"))

        await client.close()
        await service.stop()
        await serviceConnection.close()
        await connection.close()
    }
}
