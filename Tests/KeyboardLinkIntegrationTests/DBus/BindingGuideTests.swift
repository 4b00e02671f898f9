import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The examples of `docs/dbus-binding.md`, run as written, with the public API only (no `@testable`): if the guide's
/// code stops compiling or stops doing what the guide says, this suite fails.
///
/// The time limit catches a hang; it is generous because the wait for one of the suite's private buses
/// (`DaemonSlots`) counts toward it, and on a loaded machine that wait took over a minute.
@Suite(
    "The D-Bus binding guide's examples (docs/dbus-binding.md) run as written",
    .timeLimit(.minutes(5)))
struct BindingGuideTests {
    static let name: BusName = "org.example.Thermostat"
    static let path: ObjectPath = "/org/example/thermostat"
    static let interface: InterfaceName = "org.example.Thermostat1"

    /// The guide's "Serving an object" declaration.
    static func thermostat() -> DBusInterface {
        DBusInterface(
            interface,
            methods: [
                // Answered on the connection's thread, straight from the libdbus message.
                DBusMethod("Convert", arguments: ["celsius"], result: "fahrenheit") { (celsius: Double) in
                    celsius * 9 / 5 + 32
                },
                // Async, with the call's context: the object's path, the caller, the connection.
                DBusMethod("SetTarget", arguments: ["celsius"]) {
                    (call: MethodCallContext, celsius: Double) async throws in
                    guard (5...30).contains(celsius) else {
                        throw DBusError.invalidArgs("the target must be between 5 and 30 °C, not \(celsius)")
                    }
                    try await call.connection.setProperty(
                        "Target", of: interface, at: call.path, to: .double(celsius))
                    try await call.connection.emitSignal(
                        "TargetReached", of: interface, at: call.path, [.double(celsius)])
                },
            ],
            properties: [
                DBusProperty("Target", type: .double, initial: .double(20)),
                DBusProperty("Model", type: .string, changes: .const, initial: .string("KT-1")),
            ],
            signals: [DBusSignal("TargetReached", arguments: [DBusArgument("celsius", .double)])])
    }

    @Test("names are checked before they reach libdbus: a bad one throws instead of aborting the process")
    func names() throws {
        // Constants are literals, checked when they are made.
        let path: ObjectPath = "/org/example/thermostat"
        #expect(path == Self.path)

        // Text from outside (a message, a file, an argument) goes through the throwing initialiser.
        let text = "org/bluez/dev_AA:BB"
        do {
            _ = try ObjectPath(text)
            Issue.record("a relative path with a colon was accepted")
        } catch {
            #expect(error.kind == "object path")
            #expect(error.description.hasPrefix("invalid object path \"org/bluez/dev_AA:BB\""))
        }
        let member = "Set-Target"
        #expect(throws: InvalidNameError.self) { try MemberName(member) }
        #expect(ObjectPath(validating: "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF") != nil)
    }

    @Test("serve, call, read and watch properties, subscribe to a signal, follow the name's owner")
    func guide() async throws {
        // Connecting: a private dbus-daemon, as the tests and `kblink-bench` use.
        let slot = await DaemonSlots.shared.acquire()  // the suite's bound on private buses
        let daemon = try PrivateBusDaemon()
        defer {
            daemon.stop()
            withExtendedLifetime(slot) {}
        }
        let server = try await BusConnection.connect(to: .address(daemon.address))
        let client = try await BusConnection.connect(to: .address(daemon.address))

        // Following a name's owner: the current owner (none yet), then each change.
        var owners = try await client.ownerChanges(of: Self.name).makeAsyncIterator()
        #expect(await owners.next() == .some(nil))

        // Serving an object.
        try await server.export(Self.thermostat(), at: Self.path)
        try await server.requestName(Self.name)
        #expect(await owners.next() == .some(server.uniqueName))

        // Calling it.
        let thermostat = DBusProxy(
            connection: client, destination: Self.name, path: Self.path, interface: Self.interface)
        let fahrenheit = try await thermostat.call(
            "Convert", [.double(100)], returning: Double.self)
        #expect(fahrenheit == 212)

        // Errors carry their D-Bus names.
        do {
            try await thermostat.call("SetTarget", [.double(80)])
            Issue.record("SetTarget(80) should have been refused")
        } catch let error as DBusError {
            #expect(error.name == .invalidArgs)
            #expect(error.message.contains("between 5 and 30"))
        }

        // Properties: one at a time, or a cache that follows PropertiesChanged.
        #expect(try await thermostat.property("Model", as: String.self) == "KT-1")
        let cache = try await PropertyCache.make(for: thermostat)
        defer { cache.stop() }
        #expect(cache["Target"] == .double(20))

        // Signals: subscribe first, then act; the match rule goes when iteration ends.
        let reached = try await thermostat.signals("TargetReached")
        var changes = cache.changes.makeAsyncIterator()
        try await thermostat.call("SetTarget", [.double(22.5)])
        for try await signal in reached {
            #expect(try signal.decode(Double.self) == 22.5)
            break
        }
        let change = await changes.next()
        #expect(change?.changed["Target"] == .double(22.5))
        #expect(cache["Target"] == .double(22.5))

        // Many calls from one task: run it on the connection's thread.
        let converted: [Double] = try await withTaskExecutorPreference(client.taskExecutor) {
            var results: [Double] = []
            for celsius in 0..<100 {
                let fahrenheit = try await thermostat.call(
                    "Convert", [.double(Double(celsius))], returning: Double.self)
                results.append(fahrenheit)
            }
            return results
        }
        let expected: [Double] = (0..<100).map { Double($0) * 9 / 5 + 32 }
        #expect(converted == expected)

        // Closing: pending calls fail with Disconnected, signal streams finish, the name goes.
        await server.close()
        #expect(await owners.next() == .some(nil))
        await client.close()
    }
}
