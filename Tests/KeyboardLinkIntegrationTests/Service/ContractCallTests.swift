import KeyboardLink
import Testing

/// Calls made with the contract's values (`DBusProxy.call(_: KBlinkMethod, ...)`).
@Suite("Calls through KBlinkContract")
struct ContractCallTests {
    @Test("a call whose arguments do not have the contract's types is refused before it is sent")
    func argumentsAreChecked() async throws {
        // No bus is needed: the check comes first. A proxy needs a connection, so use a private bus.
        let bus = try await TestBus()
        let connection = try await BusConnection.connect(to: .address(bus.address), label: "contract-test")
        let proxy = DBusProxy(
            connection: connection, destination: KBlink.service, path: KBlink.managerPath,
            interface: KBlink.managerInterface)
        await #expect(throws: DBusError.self) {
            try await proxy.call(KBlinkContract.Manager.pair.declaration, [.uint32(1)])
        }
        await connection.close()
    }
}
