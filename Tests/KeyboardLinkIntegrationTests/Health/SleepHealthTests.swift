import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// logind's `PrepareForSleep` from python-dbusmock's `logind` template: healing pauses before the computer sleeps
/// and starts over, with a whole budget, after the resume.
@Suite("Healing across sleep (python-dbusmock's logind)", .serialized)
struct SleepHealthTests {
    static let aula = SimulatedDevice.aulaF87.address

    @Test("going to sleep stops healing; after the resume the keyboard is expected back and healed")
    func pausesAndResumes() async throws {
        var device = SimulatedDevice.aulaF87
        device.inputDevice = .never
        // A long backoff: after its first step the ladder waits, and only sleep or a resume changes that.
        let settings = HealthSettings(deadline: .milliseconds(1500), budget: 3, backoff: .seconds(3600))
        try await withHealthDaemon(devices: [device], health: settings) { daemon throws in
            let logind = try ChildProcess(
                "/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "logind"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": daemon.bus.address, "PATH": "/usr/bin:/bin"])
            defer { logind.signal(SIGKILL) }
            let connection = try await daemon.bus.connect()
            defer { Task { await connection.close() } }
            let login1 = BusName("org.freedesktop.login1")
            #expect(try await eventually { try await connection.nameOwner(of: login1) != nil })
            func prepareForSleep(_ start: Bool) async throws {
                try await connection.call(
                    destination: login1, path: ObjectPath("/org/freedesktop/login1"),
                    interface: InterfaceName("org.freedesktop.DBus.Mock"), member: MemberName("EmitSignal"),
                    [
                        .string("org.freedesktop.login1.Manager"), .string("PrepareForSleep"), .string("b"),
                        .array(.variant, [.variant(.boolean(start))]),
                    ])
            }
            let service = try daemon.service

            // The first step (reconnect: an LE keyboard gets no ConnectProfile) ran.
            #expect(await eventually { await daemon.bluez.healingCalls(of: Self.aula).connect == 1 })
            #expect(try await daemon.health(Self.aula) == .healing)
            try await prepareForSleep(true)
            #expect(await eventually { daemon.logLines.contains { $0.1.contains("the computer is going to sleep") } })
            #expect(await eventually { await !service.healthIsPending(Self.aula) })
            // The keyboard's link drops while the computer sleeps.
            try await daemon.bluez.setConnected(Self.aula, false)
            #expect(try await daemon.settles(Self.aula, at: .asleep))

            // It comes back after the resume, and this time disconnecting and connecting it makes its input device.
            try await daemon.bluez.setInputDeviceBehavior(Self.aula, .afterReconnect)
            try await prepareForSleep(false)
            try await daemon.bluez.setConnected(Self.aula, true)
            #expect(try await daemon.settles(Self.aula, at: .working))
            #expect(await daemon.bluez.healingCalls(of: Self.aula) == .init(disconnect: 2, connect: 2))
            #expect(try await daemon.report(Self.aula).heals.last?.outcome == "healed")
        }
    }
}
