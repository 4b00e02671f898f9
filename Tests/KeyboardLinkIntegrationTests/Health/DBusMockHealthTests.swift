import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Healing against python-dbusmock's `bluez5` template, a BlueZ written by others with no kernel behind it: no input
/// device ever appears, so kblinkd tries within its budget, reports failed with a reason, stops, and no longer
/// counts the keyboard as attached.
@Suite("Healing against python-dbusmock's bluez5 template")
struct DBusMockHealthTests {
    static let mockInterface = InterfaceName("org.bluez.Mock")
    static let address = "AA:BB:CC:DD:EE:02"
    static let devicePath = ObjectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_02")

    /// A keyboard as the mock shows it: its properties, and what kblinkd's ladder does for it.
    struct MockKeyboard: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var properties: [DBusDictionaryEntry]
        var steps: [String]
        var connectProfileCalls: Int
        var reconnects: Int

        /// A classic HID keyboard: ConnectProfile, then disconnect and connect.
        static let classic = MockKeyboard(
            testDescription: "classic HID",
            properties: [
                DBusDictionaryEntry(key: .string("Class"), value: .variant(.uint32(0x002540))),
                DBusDictionaryEntry(
                    key: .string("UUIDs"),
                    value: .variant(.array(.string, [.string("00001124-0000-1000-8000-00805f9b34fb")]))),
            ], steps: ["connect-profile", "reconnect"], connectProfileCalls: 1, reconnects: 1)
        /// An LE keyboard (the template's `Class` stays 0, which bluetoothd would not show): no ConnectProfile,
        /// which real bluetoothd sends over BR/EDR; disconnect and connect twice. The template never resolves
        /// services, so `ServicesResolved` is set beforehand (kblinkd's deadline for an LE keyboard starts there).
        static let lowEnergy = MockKeyboard(
            testDescription: "HID over GATT",
            properties: [
                DBusDictionaryEntry(key: .string("Appearance"), value: .variant(.uint16(0x03C1))),
                DBusDictionaryEntry(key: .string("ServicesResolved"), value: .variant(.boolean(true))),
                DBusDictionaryEntry(
                    key: .string("UUIDs"),
                    value: .variant(.array(.string, [.string("00001812-0000-1000-8000-00805f9b34fb")]))),
            ], steps: ["reconnect", "reconnect"], connectProfileCalls: 0, reconnects: 2)
    }

    @Test(
        "no input device ever: the budget's steps, then failed with a reason, nothing pending, not attached",
        arguments: [MockKeyboard.classic, MockKeyboard.lowEnergy])
    func failsWithinBudget(_ mocked: MockKeyboard) async throws {
        let bus = try await TestBus()
        let mock = try ChildProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "bluez5"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        defer { mock.signal(SIGKILL) }
        let connection = try await bus.connect()
        #expect(try await eventually { try await connection.nameOwner(of: BlueZ.service) != nil })
        func callMock(_ member: String, _ arguments: [DBusValue]) async throws {
            try await connection.call(
                destination: BlueZ.service, path: .root, interface: Self.mockInterface, member: try MemberName(member),
                arguments)
        }
        try await callMock("AddAdapter", [.string("hci0"), .string("kblink-test")])
        try await callMock("AddDevice", [.string("hci0"), .string(Self.address), .string("Mock Keyboard")])
        try await connection.call(
            destination: BlueZ.service, path: Self.devicePath, interface: InterfaceName("org.freedesktop.DBus.Mock"),
            member: MemberName("UpdateProperties"),
            [
                .string("org.bluez.Device1"),
                .dictionary(
                    key: .string, value: .variant,
                    [
                        DBusDictionaryEntry(key: .string("Icon"), value: .variant(.string("input-keyboard"))),
                        DBusDictionaryEntry(key: .string("Paired"), value: .variant(.boolean(true))),
                        DBusDictionaryEntry(key: .string("Trusted"), value: .variant(.boolean(true))),
                    ] + mocked.properties),
            ])

        let serviceConnection = try await bus.connect()
        var options = KeyboardLinkService.Options(stateDirectory: "/tmp")
        // A reconnect's Connected signals seen after the keyboard failed (they lag on a loaded machine) are the
        // step's own and start nothing: the counts below hold for any deadline.
        options.health = HealthSettings(deadline: .seconds(1), budget: 2, backoff: .milliseconds(50))
        let lines = LogRecorder()
        let service = KeyboardLinkService(
            connection: serviceConnection, options: options,
            log: { level, message in lines.lines.withLock { $0.append((level, message)) } })
        try await service.start()
        // kblinkd watches input devices, and there are none: the mock has no kernel behind it.
        await service.updateEvdevDevices([])
        let client = try await KBlinkClient.connect(to: bus.busAddress)
        let address = try #require(BluetoothAddress(validating: Self.address))

        try await callMock("ConnectDevice", [.string("hci0"), .string(Self.address)])
        #expect(
            try await eventually {
                try await client.keyboards().first?.health == .failed
            })
        #expect(await eventually { await !service.healthIsPending(address) })
        let keyboard = try await client.keyboard(matching: Self.address)
        let report = try await client.healthReport(of: keyboard)
        #expect(report.heals.map(\.step) == mocked.steps)
        #expect(report.detail.contains("no input device was made for it"))
        // Presence is published right after the keyboard's properties.
        #expect(try await eventually { try await !client.status().hardwareKeyboardAttached })

        // The mock counted each step's calls: a ConnectProfile for the classic keyboard only, a Disconnect and a
        // Connect per reconnect; no more.
        let control = DBusProxy(
            connection: connection, destination: BlueZ.service, path: Self.devicePath,
            interface: InterfaceName("org.freedesktop.DBus.Mock"))
        func calls(_ method: String) async throws -> Int {
            try await control.call(
                MemberName("GetMethodCalls"), [.string(method)], returning: [DBusStruct<UInt64, [DBusValue]>].self
            ).count
        }
        #expect(try await calls("ConnectProfile") == mocked.connectProfileCalls)
        #expect(try await calls("Disconnect") == mocked.reconnects)
        #expect(try await calls("Connect") == mocked.reconnects)
        let failed = lines.lines.withLock { $0 }.filter { $0.1.contains("failed:") }
        #expect(failed.count == 1)

        await client.close()
        await service.stop()
        await serviceConnection.close()
        await connection.close()
    }
}
