import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// kblinkd throws ``KBlinkError``; the reply carries its name and message, and a contract call gives the client the
/// same typed value back. Errors that are not the API's stay ``DBusError``.
@Suite struct KBlinkErrorReplyTests {
    @Test("a KBlinkError thrown by kblinkd arrives at the client as the same typed value")
    func daemonErrorArrivesTyped() async throws {
        try await withDaemon { harness in
            let client = try await harness.client()
            let address = SimulatedDevice.aulaF87.address.description
            let expected = KBlinkError.notFound("no pairing of \(address) is running")
            let typed = await #expect(throws: KBlinkError.self) {
                try await client.manager.call(KBlinkContract.Manager.cancelPairing, address)
            }
            #expect(typed == expected)

            // On the wire: the API's name and the same message.
            let raw = await #expect(throws: DBusError.self) {
                try await client.connection.call(
                    destination: KBlink.service, path: KBlink.managerPath, interface: KBlink.managerInterface,
                    member: KBlinkContract.Manager.cancelPairing.declaration.name, [.string(address)])
            }
            #expect(raw == expected.dbusError)
            #expect(raw?.name.rawValue == "org.kblink1.Error.NotFound")

            // A property setter's refusal comes back typed too.
            let keymap = KeymapClient(client: client, keyboard: try await client.keyboard(matching: address))
            let zone = await #expect(throws: KBlinkError.self) { try await keymap.selectZone("keys") }
            #expect(zone?.code == .invalidArgs)
            await client.close()
        }
    }

    @Test("an error that is not the API's stays a DBusError")
    func otherErrorsStayDBusErrors() async throws {
        try await withDaemon { harness in
            let client = try await harness.client()
            let nowhere = DBusProxy(
                connection: client.connection, destination: KBlink.service,
                path: KBlink.keyboardPath(BluetoothAddress(validating: "00:11:22:33:44:55")!),
                interface: KBlink.keyboardInterface)
            let error = await #expect(throws: DBusError.self) {
                try await nowhere.call(KBlinkContract.Keyboard.refreshInfo)
            }
            #expect(error?.name == .unknownObject)
            await client.close()
        }
    }
}
