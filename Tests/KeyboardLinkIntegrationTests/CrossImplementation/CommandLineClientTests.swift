import KeyboardLink
import Testing

extension CrossImplementation {
    /// busctl (sd-bus) and gdbus (GLib) as clients of our server: method calls, properties, errors.
    @Suite("busctl and gdbus call our server")
    struct CommandLineClientTests {
        static let busName = BusName("com.example.Echo")

        private func withEchoService(_ body: (TestBus, BusConnection) async throws -> Void) async throws {
            try await withBus { bus, server, _ in
                try await server.export(EchoService.declaration(), at: EchoService.path)
                try await server.requestName(Self.busName)
                try await body(bus, server)
            }
        }

        private func busctl(_ bus: TestBus, _ arguments: [String]) async throws -> ToolProcess.Outcome {
            try await ToolProcess.outcome("/usr/bin/busctl", ["--address=\(bus.address)"] + arguments)
        }

        private func gdbusCall(_ bus: TestBus, _ method: String, _ arguments: [String]) async throws
            -> ToolProcess.Outcome
        {
            try await ToolProcess.outcome(
                "/usr/bin/gdbus",
                [
                    "call", "--address", bus.address, "--dest", Self.busName.rawValue, "--object-path",
                    EchoService.path.rawValue, "--method", method,
                ] + arguments)
        }

        @Test("busctl calls methods, gets and sets properties, and sees refusals")
        func busctlClient() async throws {
            try await withEchoService { bus, server in
                let target = [Self.busName.rawValue, EchoService.path.rawValue, EchoService.interface.rawValue]
                let concat = try await busctl(bus, ["call"] + target + ["Concat", "ss", "kb", "link"])
                #expect(concat.status == 0, "\(concat.error)")
                #expect(concat.output == "s \"kblink\"")
                let echo = try await busctl(bus, ["call"] + target + ["Echo", "v", "as", "2", "a", "b"])
                #expect(echo.output == "v as 2 \"a\" \"b\"", "\(echo.error)")
                let volume = try await busctl(bus, ["get-property"] + target + ["Volume"])
                #expect(volume.output == "u 5", "\(volume.error)")

                let set = try await busctl(bus, ["set-property"] + target + ["Volume", "u", "42"])
                #expect(set.status == 0, "\(set.error)")
                let stored = await server.property(
                    MemberName("Volume"), of: EchoService.interface, at: EchoService.path)
                #expect(stored == .uint32(42))

                let refused = try await busctl(bus, ["set-property"] + target + ["Volume", "u", "500"])
                #expect(refused.status != 0)
                #expect(refused.error.contains("Volume is 0..100"), "\(refused.error)")
                let readOnly = try await busctl(bus, ["set-property"] + target + ["Name", "s", "other"])
                #expect(readOnly.status != 0)
                let failed = try await busctl(bus, ["call"] + target + ["Fail", "s", "no thanks"])
                #expect(failed.status != 0)
                #expect(failed.error.contains("no thanks"), "\(failed.error)")
                let wrong = try await busctl(bus, ["call"] + target + ["Add", "ss", "x", "y"])
                #expect(wrong.status != 0)
                #expect(wrong.error.contains("takes arguments 'ii'"), "\(wrong.error)")
            }
        }

        @Test("gdbus calls methods with GVariant arguments and reads D-Bus error names")
        func gdbusClient() async throws {
            try await withEchoService { bus, _ in
                let add = try await gdbusCall(bus, "com.example.Echo.Add", ["40", "2"])
                #expect(add.output == "(42,)", "\(add.error)")
                let echo = try await gdbusCall(bus, "com.example.Echo.Echo", ["<@a{sv} {'keys': <uint16 87>}>"])
                #expect(echo.output == "(<{'keys': <uint16 87>}>,)", "\(echo.error)")
                let all = try await gdbusCall(bus, "org.freedesktop.DBus.Properties.GetAll", ["com.example.Echo"])
                #expect(
                    all.output == "({'Name': <'echo'>, 'Volume': <uint32 5>, 'Serial': <'S-1'>, 'Secret': <'a'>},)",
                    "\(all.error)")
                let ping = try await gdbusCall(bus, "org.freedesktop.DBus.Peer.Ping", [])
                #expect(ping.status == 0, "\(ping.error)")
                #expect(ping.output == "()")

                let failed = try await gdbusCall(bus, "com.example.Echo.Fail", ["no thanks"])
                #expect(failed.status != 0)
                #expect(failed.error.contains("GDBus.Error:com.example.Error.Refused: no thanks"), "\(failed.error)")
                let unknown = try await gdbusCall(bus, "com.example.Echo.Missing", [])
                #expect(
                    unknown.error.contains("GDBus.Error:org.freedesktop.DBus.Error.UnknownMethod"), "\(unknown.error)")
                let noObject = try await ToolProcess.outcome(
                    "/usr/bin/gdbus",
                    [
                        "call", "--address", bus.address, "--dest", Self.busName.rawValue, "--object-path",
                        "/com/example/nothing", "--method", "com.example.Echo.Add", "1", "2",
                    ])
                #expect(
                    noObject.error.contains("GDBus.Error:org.freedesktop.DBus.Error.UnknownObject"), "\(noObject.error)"
                )
            }
        }
    }
}
