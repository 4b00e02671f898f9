import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink pair` against python-dbusmock's `bluez5` template, whose `Pair` marks the device paired without
/// calling any agent: the flow must not depend on prompts to finish.
@Suite("kblink pair against python-dbusmock's bluez5 template")
struct PairingDBusMockTests {
    static let address = "AA:BB:CC:DD:EE:02"

    @Test("a keyboard the mock pairs without an agent ends paired, trusted and connected")
    func pairsWithoutPrompts() async throws {
        let bus = try await TestBus()
        let mock = try ChildProcess(
            "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "bluez5"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"])
        defer { mock.signal(SIGKILL) }
        let connection = try await bus.connect()
        #expect(
            try await eventually { try await connection.nameOwner(of: BlueZ.service) != nil })
        let mockInterface = InterfaceName("org.bluez.Mock")
        try await connection.call(
            destination: BlueZ.service, path: .root, interface: mockInterface, member: MemberName("AddAdapter"),
            [.string("hci0"), .string("kblink-test")])
        try await connection.call(
            destination: BlueZ.service, path: .root, interface: mockInterface, member: MemberName("AddDevice"),
            [.string("hci0"), .string(Self.address), .string("Mock Keyboard")])
        // The mock's Pair announces a phone's class and icon; the appearance keeps it a keyboard.
        try await connection.call(
            destination: BlueZ.service, path: ObjectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_02"),
            interface: InterfaceName("org.freedesktop.DBus.Mock"), member: MemberName("UpdateProperties"),
            [
                .string("org.bluez.Device1"),
                .dictionary(
                    key: .string, value: .variant,
                    [
                        DBusDictionaryEntry(key: .string("Icon"), value: .variant(.string("input-keyboard"))),
                        DBusDictionaryEntry(key: .string("Appearance"), value: .variant(.uint16(0x03C1))),
                    ]),
            ])

        let serviceConnection = try await bus.connect()
        let stateDirectory = NSTemporaryDirectory() + "kblink-state-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: stateDirectory) }
        let service = KeyboardLinkService(
            connection: serviceConnection, options: .init(stateDirectory: stateDirectory), log: { _, _ in })
        try await service.start()
        let client = try await KBlinkClient.connect(to: bus.busAddress)
        #expect(try await eventually { try await client.keyboards().map(\.address) == [Self.address] })

        let result = try await runProcess(
            DaemonHarness.binary("kblink"), ["pair", "Mock", "--json", "--bus", bus.address])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(!result.standardOutput.contains("\"event\":\"prompt\""), "the mock calls no agent")
        #expect(result.standardOutput.contains("\"ok\":true"))
        let keyboard = try await client.keyboard(matching: Self.address)
        #expect(keyboard.paired && keyboard.trusted && keyboard.connected)

        await client.close()
        await service.stop()
        await serviceConnection.close()
        await connection.close()
    }
}
