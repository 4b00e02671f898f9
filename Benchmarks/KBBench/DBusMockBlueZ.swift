import Glibc
import KeyboardLink

/// python-dbusmock's `bluez5` template on a private bus of its own, holding one adapter and many devices that
/// carry the same addresses, names and keyboard properties as ``SimulatedKeyboards``.
///
/// dbusmock has no address option: with `--system` it takes the system bus, so its environment (and that of
/// every client, bluetoothctl included) names the private bus in `DBUS_SYSTEM_BUS_ADDRESS`.
final class DBusMockBlueZ: Sendable {
    static let python = "/usr/bin/python3"
    let bus: PrivateBusDaemon
    let mock: ChildProcess
    /// Where the mock's standard error goes.
    let errorPath: String

    /// The environment entry that points a system-bus client at the mock's bus.
    var systemBusVariable: String { "DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)" }

    /// Starts the bus and the mock and adds `devices` devices (this takes a few seconds: dbusmock is Python).
    init(devices: Int) async throws {
        bus = try PrivateBusDaemon()
        errorPath = "/tmp/kblink-bench-dbusmock-\(getpid()).log"
        do {
            mock = try ChildProcess.start(
                Self.python, ["-m", "dbusmock", "--system", "--template", "bluez5"],
                environment: ChildProcess.environment(["DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)"]),
                captureOutput: false, errorPath: errorPath)
        } catch {
            bus.stop()
            throw BenchError("\(error) (install the Debian packages python3-dbusmock and bluez)")
        }
        do {
            try await populate(devices)
        } catch {
            stop()
            let log = ProcessMemory.readText(errorPath) ?? ""
            throw BenchError("python-dbusmock bluez5: \(error)\n\(log.suffix(2000))")
        }
    }

    private func populate(_ count: Int) async throws {
        let connection = try await BusConnection.connect(
            to: .address(bus.address), label: "kblink-bench.dbusmock-client")
        defer { Task { await connection.close() } }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(20))
        while try await connection.nameOwner(of: BlueZ.service) == nil {
            guard clock.now < deadline, !mock.hasExited() else {
                throw BenchError("the mock did not take org.bluez within 20 s")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let mockInterface = InterfaceName("org.bluez.Mock")
        let propertiesMock = InterfaceName("org.freedesktop.DBus.Mock")
        _ = try await connection.call(
            destination: BlueZ.service, path: .root, interface: mockInterface, member: MemberName("AddAdapter"),
            [.string("hci0"), .string("kblink-bench")])
        let updateProperties = MemberName("UpdateProperties")
        let addDevice = MemberName("AddDevice")
        for index in 0..<count {
            let address = BlueZDevices.address(index)
            let reply = try await connection.call(
                destination: BlueZ.service, path: .root, interface: mockInterface, member: addDevice,
                [.string("hci0"), .string(address), .string(SimulatedKeyboards.name(index))])
            // The template answers the path as a string.
            let path: ObjectPath
            switch reply.body.first {
            case .objectPath(let value)?: path = value
            case .string(let text)?: path = try ObjectPath(text)
            default: throw BenchError("AddDevice answered \(reply.body)")
            }
            // The same traits as the simulated keyboards, so both replies describe the same devices.
            let properties: [(String, DBusValue)] = [
                ("Icon", .string("input-keyboard")),
                ("Class", .uint32(0x0025_40)),
                ("UUIDs", .array(.string, [.string(SimulatedKeyboards.hidUUID)])),
                ("Modalias", .string("usb:v05ACp0256d0110")),
                ("Paired", .boolean(true)),
                ("Trusted", .boolean(index % 2 == 0)),
                ("Connected", .boolean(index % 5 == 0)),
            ]
            _ = try await connection.call(
                destination: BlueZ.service, path: path, interface: propertiesMock, member: updateProperties,
                [
                    .string(BlueZ.deviceInterface.rawValue),
                    .dictionary(
                        key: .string, value: .variant,
                        properties.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) }),
                ])
        }
    }

    /// Kills the mock and its bus.
    func stop() {
        mock.kill(SIGKILL)
        _ = mock.wait()
        bus.stop()
        unlink(errorPath)
    }
}
