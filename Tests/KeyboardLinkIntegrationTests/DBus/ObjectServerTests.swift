import KeyboardLink
import KeyboardLinkTestSupport
import Testing

@Suite("Object server: standard errors, properties, ObjectManager, signals")
struct ObjectServerTests {
    static let get = MemberName("Get")

    func echoProxy(_ client: BusConnection, _ server: BusConnection) -> DBusProxy {
        EchoService.proxy(from: client, to: server.uniqueName)
    }

    func expectError(
        _ name: ErrorName, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        await expectDBusError(name, sourceLocation: sourceLocation, body)
    }

    @Test("unknown object, interface, method, property and wrong signatures get the standard errors")
    func standardErrors() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = echoProxy(client, server)
            await expectError(.unknownObject) {
                try await client.call(
                    destination: server.uniqueName, path: ObjectPath("/nowhere"), interface: EchoService.interface,
                    member: MemberName("Echo"), [.variant(.byte(1))])
            }
            await expectError(.unknownInterface) {
                try await client.call(
                    destination: server.uniqueName, path: EchoService.path,
                    interface: InterfaceName("com.example.Nope"),
                    member: MemberName("Echo"), [.variant(.byte(1))])
            }
            await expectError(.unknownMethod) { try await proxy.call(MemberName("Nope")) }
            await expectError(.invalidArgs) { try await proxy.call(MemberName("Add"), [.string("1"), .int32(2)]) }
            await expectError(.invalidArgs) { try await proxy.call(MemberName("Add"), []) }
            await expectError(.unknownProperty) { _ = try await proxy.property(MemberName("Nope")) }
            await expectError(.propertyReadOnly) {
                try await proxy.setProperty(MemberName("Name"), to: .string("x"))
            }
            await expectError(.invalidArgs) { try await proxy.setProperty(MemberName("Volume"), to: .string("x")) }
            await expectError(.invalidArgs) { try await proxy.setProperty(MemberName("Volume"), to: .uint32(101)) }
            let refused = ErrorName("com.example.Error.Refused")
            await expectError(refused) { try await proxy.call(MemberName("Fail"), [.string("no")]) }
            // An interface-less call finds the member on any interface.
            let sum = try await client.call(
                destination: server.uniqueName, path: EchoService.path, interface: nil, member: MemberName("Add"),
                [.int32(2), .int32(3)])
            #expect(try sum.decode(Int32.self) == 5)
            // Peer is answered by libdbus itself.
            _ = try await client.call(
                destination: server.uniqueName, path: EchoService.path,
                interface: InterfaceName("org.freedesktop.DBus.Peer"),
                member: MemberName("Ping"))
        }
    }

    @Test("Get, GetAll and Set follow the declaration; PropertiesChanged carries values or invalidations")
    func properties() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = echoProxy(client, server)
            #expect(try await proxy.property(MemberName("Name"), as: String.self) == "echo")
            let all = try await proxy.allProperties().values
            #expect(all["Volume"] == .uint32(5))
            #expect(all["Serial"] == .string("S-1"))
            #expect(all.count == 4)

            let changes = try await client.subscribe(
                to: MatchRule(sender: server.uniqueName, path: EchoService.path, interface: .properties))
            try await proxy.setProperty(MemberName("Volume"), to: .uint32(9))
            #expect(try await proxy.property(MemberName("Volume")) == .uint32(9))
            let changed = try #require(await first(of: changes))
            #expect(changed.body[0] == .string("com.example.Echo"))
            #expect(changed.body[1].stringDictionary?["Volume"]?.unwrapped == .uint32(9))

            try await server.setProperty(
                MemberName("Secret"), of: EchoService.interface, at: EchoService.path, to: .string("b"))
            let invalidated = try #require(await first(of: changes))
            #expect(invalidated.body[1].stringDictionary?.isEmpty == true)
            #expect(invalidated.body[2] == .array(.string, [.string("Secret")]))
            // Setting the same value again emits nothing; a later change is the next signal.
            try await server.setProperty(
                MemberName("Volume"), of: EchoService.interface, at: EchoService.path, to: .uint32(9))
            try await server.setProperty(
                MemberName("Volume"), of: EchoService.interface, at: EchoService.path, to: .uint32(10))
            let next = try #require(await first(of: changes))
            #expect(next.body[1].stringDictionary?["Volume"]?.unwrapped == .uint32(10))
            await #expect(throws: DBusError.self) {
                try await server.setProperty(
                    MemberName("Volume"), of: EchoService.interface, at: EchoService.path, to: .string("x"))
            }
        }
    }

    @Test("setProperties stores every value at once, in one PropertiesChanged, or none when one is wrong")
    func severalPropertiesAtOnce() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = echoProxy(client, server)
            let changes = try await client.subscribe(
                to: MatchRule(sender: server.uniqueName, path: EchoService.path, interface: .properties))
            let volume = MemberName("Volume")
            let secret = MemberName("Secret")
            try await server.setProperties(
                [(volume, .uint32(11)), (secret, .string("c"))], of: EchoService.interface, at: EchoService.path)
            let both = try #require(await first(of: changes))
            #expect(both.body[1].stringDictionary?["Volume"]?.unwrapped == .uint32(11))
            #expect(both.body[2] == .array(.string, [.string("Secret")]))
            #expect(try await proxy.property(volume) == .uint32(11))
            // A wrong type for the second value: the first is not stored either.
            await #expect(throws: DBusError.self) {
                try await server.setProperties(
                    [(volume, .uint32(12)), (secret, .uint32(1))], of: EchoService.interface, at: EchoService.path)
            }
            #expect(try await proxy.property(volume) == .uint32(11))
        }
    }

    @Test("the ObjectManager announces objects as they come and go")
    func objectManager() async throws {
        try await withBus { _, server, client in
            let root = ObjectPath("/com/example")
            await server.addObjectManager(at: root)
            let signals = try await client.subscribe(
                to: MatchRule(sender: server.uniqueName, path: root, interface: .objectManager))
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let added = try #require(await first(of: signals))
            #expect(added.member?.rawValue == "InterfacesAdded")
            #expect(added.body[0] == .objectPath(EchoService.path))
            let interfaces = try [String: [String: DBusValue]](dbusValue: added.body[1])
            #expect(interfaces["com.example.Echo"]?["Name"] == .string("echo"))

            let managed = try await client.call(
                destination: server.uniqueName, path: root, interface: .objectManager,
                member: MemberName("GetManagedObjects"))
            let objects = try managed.decode([ObjectPath: [String: [String: DBusValue]]].self)
            #expect(objects.keys.sorted() == [EchoService.path])
            #expect(objects[EchoService.path]?["com.example.Echo"]?["Volume"] == .uint32(5))

            await server.unexport(at: EchoService.path)
            let removed = try #require(await first(of: signals))
            #expect(removed.member?.rawValue == "InterfacesRemoved")
            #expect(removed.body[1] == .array(.string, [.string("com.example.Echo")]))
            let after = try await client.call(
                destination: server.uniqueName, path: root, interface: .objectManager,
                member: MemberName("GetManagedObjects"))
            #expect(try after.decode([ObjectPath: [String: [String: DBusValue]]].self).isEmpty)
        }
    }

    @Test("introspection is generated from the declaration and lists child nodes")
    func introspection() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let reply = try await client.call(
                destination: server.uniqueName, path: EchoService.path, interface: .introspectable,
                member: MemberName("Introspect"))
            let xml = try reply.decode(String.self)
            #expect(xml.contains("<interface name=\"com.example.Echo\">"))
            #expect(xml.contains("<method name=\"Add\">"))
            #expect(xml.contains("<arg name=\"sum\" type=\"i\" direction=\"out\"/>"))
            #expect(xml.contains("<property name=\"Volume\" type=\"u\" access=\"readwrite\"/>"))
            #expect(xml.contains("value=\"const\""))
            #expect(xml.contains("<signal name=\"Pinged\">"))
            #expect(xml.contains("org.freedesktop.DBus.Properties"))
            let parent = try await client.call(
                destination: server.uniqueName, path: ObjectPath("/com"), interface: .introspectable,
                member: MemberName("Introspect"))
            #expect(try parent.decode(String.self).contains("<node name=\"example\"/>"))
        }
    }

    @Test("the standard interfaces answer like any declared one: with or without the interface, with the same errors")
    func standardInterfaces() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            func call(
                _ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName, _ arguments: [DBusValue] = []
            ) async throws -> Message {
                try await client.call(
                    destination: server.uniqueName, path: path, interface: interface, member: member, arguments)
            }
            // No interface named: the standard members are found as a declared one is.
            let xml = try await call(EchoService.path, nil, "Introspect").decode(String.self)
            #expect(xml.contains("<interface name=\"org.freedesktop.DBus.Peer\">"))
            #expect(xml.contains("<method name=\"GetMachineId\">"))
            let volume = try await call(EchoService.path, nil, "Get", [.string("com.example.Echo"), .string("Volume")])
            #expect(try volume.decode(DBusValue.self) == .uint32(5))
            // GetAll lists the readable properties in declaration order.
            let all = try await call(EchoService.path, .properties, "GetAll", [.string("com.example.Echo")])
            guard case .dictionary(_, _, let entries)? = all.body.first else {
                Issue.record("GetAll answered \(all.body)")
                return
            }
            #expect(entries.map(\.key) == [.string("Name"), .string("Volume"), .string("Serial"), .string("Secret")])
            // Peer without an interface (libdbus answers it when the call names the interface).
            #expect(try await call(EchoService.path, nil, "Ping").body.isEmpty)
            let machine = try await call(EchoService.path, nil, "GetMachineId").decode(String.self)
            let viaLibDBus = try await call(EchoService.path, .peer, "GetMachineId").decode(String.self)
            #expect(machine == viaLibDBus)
            #expect(machine.count == 32)
            // The same errors as for a declared interface, checked before the handler runs.
            await expectError(.invalidArgs) {
                _ = try await call(EchoService.path, .introspectable, "Introspect", [.byte(1)])
            }
            await expectError(.unknownMethod) { _ = try await call(EchoService.path, .properties, "Nope") }
            await expectError(.unknownObject) { _ = try await call("/com/example/none", .introspectable, "Introspect") }
            await expectError(.unknownObject) {
                _ = try await call("/com/example/none", .properties, "GetAll", [.string("com.example.Echo")])
            }
            await expectError(.unknownInterface) {
                _ = try await call(EchoService.path, .objectManager, "GetManagedObjects")
            }
            await expectError(.unknownInterface) {
                _ = try await call(EchoService.path, .properties, "GetAll", [.string("com.example.Nope")])
            }
        }
    }

    @Test("signals reach subscribers that match, and stop when iteration ends")
    func signalsAndUnsubscribe() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let pinged = MemberName("Pinged")
            let mine = try await client.subscribe(
                to: MatchRule(
                    sender: server.uniqueName, path: EchoService.path, interface: EchoService.interface, member: pinged)
            )
            let other = try await client.subscribe(
                to: MatchRule(
                    sender: server.uniqueName, interface: EchoService.interface, member: MemberName("Other")))
            try await server.emitSignal(pinged, of: EchoService.interface, at: EchoService.path, [.uint32(1)])
            let received = try #require(await first(of: mine))
            #expect(received.body == [.uint32(1)])
            #expect(await first(of: other, timeout: .milliseconds(200)) == nil)
        }
    }

    @Test("a handler may reply later while other calls complete")
    func asynchronousHandlers() async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let proxy = echoProxy(client, server)
            async let slow = proxy.call(MemberName("Slow"), [.uint32(300)], returning: Bool.self)
            let quick = try await proxy.call(MemberName("Add"), [.int32(1), .int32(1)], returning: Int32.self)
            #expect(quick == 2)
            #expect(try await slow)
        }
    }

    @Test("well-known names: request, owner tracking, sender matching by owner")
    func wellKnownNames() async throws {
        try await withBus { bus, server, client in
            let name = BusName("com.example.EchoService")
            var owners = try await client.ownerChanges(of: name).makeAsyncIterator()
            #expect(await owners.next() == .some(nil))
            #expect(try await server.requestName(name) == .primaryOwner)
            #expect(await owners.next() == .some(server.uniqueName))
            #expect(try await client.nameOwner(of: name) == server.uniqueName)
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let pings = try await client.subscribe(
                to: MatchRule(sender: name, path: EchoService.path, interface: EchoService.interface))
            try await server.emitSignal(
                MemberName("Pinged"), of: EchoService.interface, at: EchoService.path, [.uint32(2)])
            #expect(await first(of: pings)?.body == [.uint32(2)])
            // A signal from another connection on the same path is not from the name's owner.
            let impostor = try await bus.connect()
            try await impostor.emitSignal(
                MemberName("Pinged"), of: EchoService.interface, at: EchoService.path, [.uint32(3)])
            try await server.emitSignal(
                MemberName("Pinged"), of: EchoService.interface, at: EchoService.path, [.uint32(4)])
            #expect(await first(of: pings)?.body == [.uint32(4)])
            await impostor.close()
            try await server.releaseName(name)
            #expect(await owners.next() == .some(nil))
        }
    }
}
