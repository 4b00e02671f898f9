import KeyboardLink
import Testing

extension CrossImplementation {
    /// A python3-dbus client (libdbus driven from Python, with its own introspection parser) uses our server.
    @Suite("A python3-dbus client uses our server")
    struct PythonClientTests {
        static let busName = BusName("com.example.Echo")
        static let managerPath = ObjectPath("/com/example")
        static let keyboardPath = ObjectPath("/com/example/kb1")

        @Test("calls our methods, reads and sets properties, receives our signals and ObjectManager signals")
        func pythonClient() async throws {
            try await withBus { bus, server, _ in
                try await server.requestName(Self.busName)
                await server.addObjectManager(at: Self.managerPath)
                try await server.export(EchoService.declaration(), at: EchoService.path)
                let python = try PythonScript.echoClient.start([bus.address, Self.busName.rawValue])
                defer { python.kill() }

                // Methods: answers decoded by dbus-python with the types our declaration gives.
                #expect(try await python.nextJSON() == ["step": "concat", "kind": "String", "value": "kblink"])
                #expect(try await python.nextJSON() == ["step": "add", "kind": "Int32", "value": 42])
                #expect(
                    try await python.nextJSON() == [
                        "step": "echo-int", "kind": "Int32", "variant_level": 1, "value": 7,
                    ])
                #expect(
                    try await python.nextJSON() == [
                        "step": "echo-dict", "kind": "Dictionary", "signature": "sv",
                        "value": ["count": "UInt16:3", "name": "String:\"Aula\"", "tags": "Array:[\"a\", \"b\"]"],
                    ])
                #expect(
                    try await python.nextJSON() == [
                        "step": "echo-struct", "kind": "Struct",
                        "value": ["String:\"F87\"", "Int64:-5", "Boolean:true"],
                    ])
                #expect(
                    try await python.nextJSON() == [
                        "step": "fail", "error": "com.example.Error.Refused", "message": "no thanks",
                    ])
                let unknown = try await python.nextJSON()
                #expect(unknown["step"] == "unknown-method")
                #expect(unknown["error"] == "org.freedesktop.DBus.Error.UnknownMethod")
                let wrongArguments = try await python.nextJSON()
                #expect(wrongArguments["step"] == "wrong-arguments")
                #expect(wrongArguments["error"] == "org.freedesktop.DBus.Error.InvalidArgs")

                // Properties.
                #expect(try await python.nextJSON() == ["step": "get", "kind": "String", "value": "echo"])
                #expect(
                    try await python.nextJSON() == [
                        "step": "get-all",
                        "value": [
                            "Name": "String:\"echo\"", "Volume": "UInt32:5", "Serial": "String:\"S-1\"",
                            "Secret": "String:\"a\"",
                        ],
                    ])
                #expect(try await python.nextJSON() == ["step": "set", "returned": "None", "after": "UInt32:42"])
                let refused = try await python.nextJSON()
                #expect(refused["step"] == "set-refused")
                #expect(refused["error"] == "org.freedesktop.DBus.Error.InvalidArgs")
                #expect(refused["after"] == "UInt32:42", "a refused Set leaves the value alone")
                let wrongType = try await python.nextJSON()
                #expect(wrongType["step"] == "set-wrong-type")
                #expect(wrongType["error"] == "org.freedesktop.DBus.Error.InvalidArgs")
                let readOnly = try await python.nextJSON()
                #expect(readOnly["step"] == "set-read-only")
                #expect(readOnly["error"] == "org.freedesktop.DBus.Error.PropertyReadOnly")
                let unknownProperty = try await python.nextJSON()
                #expect(unknownProperty["step"] == "get-unknown")
                #expect(unknownProperty["error"] == "org.freedesktop.DBus.Error.UnknownProperty")
                #expect(
                    try await python.nextJSON() == [
                        "step": "managed-objects",
                        "value": ["/com/example/echo": ["com.example.Echo": ["Name", "Secret", "Serial", "Volume"]]],
                    ])
                #expect(try await python.nextJSON() == ["step": "ready"])

                // The Set from Python reached our side.
                let volume = MemberName("Volume")
                #expect(await server.property(volume, of: EchoService.interface, at: EchoService.path) == .uint32(42))

                // Signals, in the order we emit them.
                try await server.emitSignal(
                    MemberName("Pinged"), of: EchoService.interface, at: EchoService.path, [.uint32(7)])
                try await server.setProperty(volume, of: EchoService.interface, at: EchoService.path, to: .uint32(77))
                try await server.setProperty(
                    MemberName("Secret"), of: EchoService.interface, at: EchoService.path, to: .string("b"))
                try await server.export(EchoService.declaration(), at: Self.keyboardPath)
                await server.unexport(at: Self.keyboardPath)

                #expect(
                    try await python.nextJSON() == [
                        "signal": "Pinged", "path": "/com/example/echo", "args": ["UInt32:7"],
                    ])
                #expect(
                    try await python.nextJSON() == [
                        "signal": "PropertiesChanged", "path": "/com/example/echo",
                        "args": ["String:\"com.example.Echo\"", "Dictionary:{\"Volume\": 77}", "Array:[]"],
                    ])
                #expect(
                    try await python.nextJSON() == [
                        "signal": "PropertiesChanged", "path": "/com/example/echo",
                        "args": ["String:\"com.example.Echo\"", "Dictionary:{}", "Array:[\"Secret\"]"],
                    ])
                #expect(
                    try await python.nextJSON() == [
                        "signal": "InterfacesAdded", "path": "/com/example",
                        "args": [
                            "ObjectPath:\"/com/example/kb1\"",
                            "Dictionary:{\"com.example.Echo\": {\"Name\": \"echo\", \"Secret\": \"a\", \"Serial\": \"S-1\", \"Volume\": 5}}",
                        ],
                    ])
                #expect(
                    try await python.nextJSON() == [
                        "signal": "InterfacesRemoved", "path": "/com/example",
                        "args": ["ObjectPath:\"/com/example/kb1\"", "Array:[\"com.example.Echo\"]"],
                    ])
                let done = try await python.nextJSON()
                #expect(done["step"] == "done")
                #expect(try await python.waitForExit() == 0, "\(python.standardError)")
            }
        }
    }
}
