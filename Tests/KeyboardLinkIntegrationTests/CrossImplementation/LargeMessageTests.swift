import KeyboardLink
import Testing

extension CrossImplementation {
    /// Messages far larger than a socket buffer, in both directions, between our binding and python3-dbus: the
    /// path where libdbus reads and writes in several steps and our watches must follow it.
    @Suite("Large messages to and from python3-dbus")
    struct LargeMessageTests {
        static let size = 2 * 1024 * 1024

        @Test("Python sends our server an 2 MiB array and gets it back intact")
        func pythonToOurServer() async throws {
            try await withBus { bus, server, _ in
                try await server.export(EchoService.declaration(), at: EchoService.path)
                let python = try PythonScript.largeEcho.start([bus.address, server.uniqueName.rawValue, "\(Self.size)"])
                defer { python.kill() }
                let line = try await python.nextJSON(timeout: .seconds(60))
                #expect(line == ["step": "echoed", "length": .number(Double(Self.size)), "intact": true])
                #expect(try await python.waitForExit() == 0, "\(python.standardError)")
            }
        }

        @Test("our client sends Python an 2 MiB a{sv} and gets it back intact")
        func ourClientToPython() async throws {
            try await withBus { bus, _, client in
                let python = try PythonScript.service.start([bus.address])
                defer { python.kill() }
                _ = try await python.nextJSON()
                let proxy = DBusProxy(
                    connection: client, destination: BusName("com.example.PyService"),
                    path: ObjectPath("/com/example/Py"), interface: InterfaceName("com.example.Py"))
                let bytes = DBusValue.array(.byte, (0..<Self.size).map { .byte(UInt8($0 % 251)) })
                let sent: [String: DBusValue] = ["payload": bytes, "label": .string("big")]
                let echoed = try await proxy.call(
                    MemberName("EchoDict"), [sent.dbusValue], returning: [String: DBusValue].self,
                    timeout: .seconds(60))
                #expect(echoed["label"] == .string("big"))
                #expect(echoed["payload"]?.arrayValue?.count == Self.size)
                #expect(echoed["payload"] == bytes)
                try await proxy.call(MemberName("Quit"))
                #expect(try await python.waitForExit() == 0, "\(python.standardError)")
            }
        }
    }
}
