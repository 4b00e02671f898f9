import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink osk-agent` against the real dconf (Debian's `dconf-service`, the real `gsettings-desktop-schemas`, read
/// back with the real `gsettings`), python-dbusmock templates of our own for squeekboard and KWin, and kblinkd's
/// service with a simulated BlueZ on a bus of its own standing for the system bus.
@Suite("kblink osk-agent on a desktop session", .serialized, .timeLimit(.minutes(3)))
struct OSKAgentTests {
    static let aula = SimulatedDevice.aulaF87.address

    static func disconnectedAula() -> SimulatedDevice {
        var aula = SimulatedDevice.aulaF87
        aula.connected = false
        return aula
    }

    static func grace(_ period: Duration) -> (inout KeyboardLinkService.Options) -> Void {
        { $0.presence = PresenceSettings(gracePeriod: period) }
    }

    @Test(
        "acceptance: attach turns screen-keyboard-enabled false, detach and the grace period put the user's value back")
    func attachAndDetach() async throws {
        try await withDesktopSession { session in
            try await session.setScreenKeyboard(true)
            try await withDaemon(devices: [Self.disconnectedAula()], options: Self.grace(.seconds(1))) { harness in
                let agent = try await session.agent(kblinkBus: harness.bus.address)
                #expect(try await session.screenKeyboard() == "true")

                try await harness.bluez.setConnected(Self.aula, true)
                let attachedAt = ContinuousClock.now
                #expect(try await eventually { try await session.screenKeyboard() == "false" })
                print(
                    "osk-agent: screen-keyboard-enabled false \(ContinuousClock.now - attachedAt) after the connection")
                // The agent logs its change a moment after dconf has it: wait for the line.
                #expect(
                    await eventually {
                        agent.lines(
                            containing:
                                "set org.gnome.desktop.a11y.applications screen-keyboard-enabled false (was true)"
                        ).count == 1
                    })
                let status = try await runProcess(
                    DaemonHarness.binary("kblink"),
                    ["osk-agent", "--status", "--bus", harness.bus.address, "--session-bus", session.bus.address],
                    environment: session.environment)
                #expect(status.standardOutput.contains("kblinkd: hardware keyboard attached: yes"))
                #expect(
                    status.standardOutput.contains(
                        "agent: put the on-screen keyboard away (screen-keyboard-enabled was true)"))

                try await harness.bluez.setConnected(Self.aula, false)
                #expect(try await eventually { try await session.screenKeyboard() == "true" })
                #expect(
                    await eventually { agent.lines(containing: "screen-keyboard-enabled true (was false)").count == 1 })
                // The user's value is back in their own database, as they had set it.
                #expect(try await session.dconfRead() == "true")
            }
        }
    }

    @Test("a keyboard that drops and comes back inside the grace period changes nothing")
    func flickerInsideTheGracePeriod() async throws {
        try await withDesktopSession { session in
            try await session.setScreenKeyboard(true)
            // Longer than the flickers take however slow the machine: "inside the grace period" always holds.
            try await withDaemon(devices: [Self.disconnectedAula()], options: Self.grace(.seconds(300))) { harness in
                let agent = try await session.agent(kblinkBus: harness.bus.address)
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(try await eventually { try await session.screenKeyboard() == "false" })
                let client = try await harness.client()
                for _ in 0..<3 {
                    for connected in [false, true] {
                        try await harness.bluez.setConnected(Self.aula, connected)
                        #expect(
                            try await eventually {
                                try await client.keyboards().first { $0.address == Self.aula.description }?.connected
                                    == connected
                            })
                    }
                }
                await client.close()
                #expect(try await session.screenKeyboard() == "false")
                #expect(agent.lines(containing: "set org.gnome").count == 1)
                #expect(agent.lines(containing: "letting the on-screen keyboard back").isEmpty)
            }
        }
    }

    @Test("a change the user makes by hand while the keyboard is attached is kept")
    func usersOwnChangeIsKept() async throws {
        try await withDesktopSession { session in
            try await session.setScreenKeyboard(true)
            try await withDaemon(devices: [Self.disconnectedAula()], options: Self.grace(.seconds(1))) { harness in
                let agent = try await session.agent(kblinkBus: harness.bus.address)
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(try await eventually { try await session.screenKeyboard() == "false" })
                // The user wants the on-screen keyboard anyway.
                try await session.setScreenKeyboard(true)
                try await harness.bluez.setConnected(Self.aula, false)
                #expect(await eventually { !agent.lines(containing: "set by hand").isEmpty })
                #expect(try await session.screenKeyboard() == "true")
                #expect(agent.lines(containing: "set org.gnome").count == 1)

                // And the other way round: attached with the key true, the user turns it off by hand; on detach
                // it stays off.
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(try await eventually { try await session.screenKeyboard() == "false" })
                #expect(await eventually { agent.lines(containing: "set org.gnome").count == 2 })
            }
        }
    }

    @Test("an agent restarted while the keyboard is attached neither acts again nor forgets the value to put back")
    func agentRestartedMidAttachment() async throws {
        try await withDesktopSession { session in
            try await session.setScreenKeyboard(true)
            try await withDaemon(devices: [Self.disconnectedAula()], options: Self.grace(.seconds(1))) { harness in
                let first = try await session.agent(kblinkBus: harness.bus.address)
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(try await eventually { try await session.screenKeyboard() == "false" })
                #expect(await eventually { first.lines(containing: "set org.gnome").count == 1 })
                first.signal(SIGTERM)
                _ = await first.wait()

                let second = try await session.agent(kblinkBus: harness.bus.address)
                #expect(second.lines(containing: "putting the on-screen keyboard away").isEmpty)
                try await harness.bluez.setConnected(Self.aula, false)
                #expect(try await eventually { try await session.screenKeyboard() == "true" })
                #expect(second.lines(containing: "screen-keyboard-enabled true (was false)").count == 1)
            }
        }
    }

    @Test("a key the user never set is left alone: nothing written on attach or detach")
    func unsetKeyIsLeftAlone() async throws {
        try await withDesktopSession { session in
            try await withDaemon(devices: [Self.disconnectedAula()], options: Self.grace(.seconds(1))) { harness in
                let agent = try await session.agent(kblinkBus: harness.bus.address)
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(await eventually { !agent.lines(containing: "nothing to put away").isEmpty })
                try await harness.bluez.setConnected(Self.aula, false)
                #expect(await eventually { !agent.lines(containing: "letting the on-screen keyboard back").isEmpty })
                #expect(try await session.dconfRead() == "")
                #expect(try await session.screenKeyboard() == "false")
                #expect(agent.lines(containing: "set org.gnome").isEmpty)
            }
        }
    }

    @Test(
        "squeekboard gets SetVisible(false) and KWin active false (enabled untouched) on attach, even when they come later"
    )
    func squeekboardAndKWin() async throws {
        try await withDesktopSession { session in
            try await session.mock("squeekboard_osk0", name: "sm.puri.OSK0")
            try await withDaemon(devices: [Self.disconnectedAula()], options: Self.grace(.seconds(1))) { harness in
                let agent = try await session.agent(kblinkBus: harness.bus.address)
                @Sendable func osk0Visible() async throws -> Bool? {
                    try await session.property(
                        "Visible", of: "/sm/puri/OSK0", interface: "sm.puri.OSK0", at: "sm.puri.OSK0"
                    ).unwrapped.boolValue
                }
                @Sendable func kwin(_ name: String) async throws -> Bool? {
                    try await session.property(
                        name, of: "/VirtualKeyboard", interface: "org.kde.kwin.VirtualKeyboard", at: "org.kde.KWin"
                    ).unwrapped.boolValue
                }
                #expect(try await osk0Visible() == true)
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(try await eventually { try await osk0Visible() == false })
                #expect(
                    await eventually { agent.lines(containing: "called sm.puri.OSK0.SetVisible(false)").count == 1 })

                // KWin starts while the keyboard is attached: the agent acts when its name appears.
                try await session.mock("kwin_virtual_keyboard", name: "org.kde.KWin")
                #expect(try await eventually { try await kwin("active") == false })
                #expect(try await kwin("enabled") == true)
            }
        }
    }

    @Test("--dry-run says what it would do and changes nothing")
    func dryRun() async throws {
        try await withDesktopSession { session in
            try await session.setScreenKeyboard(true)
            try await session.mock("squeekboard_osk0", name: "sm.puri.OSK0")
            try await withDaemon(devices: [Self.disconnectedAula()], options: Self.grace(.seconds(1))) { harness in
                let agent = try await session.agent(kblinkBus: harness.bus.address, ["--dry-run"])
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(
                    await eventually { !agent.lines(containing: "would call sm.puri.OSK0.SetVisible(false)").isEmpty })
                #expect(
                    await eventually {
                        agent.lines(
                            containing: "would set org.gnome.desktop.a11y.applications screen-keyboard-enabled false"
                        ).count == 1
                    })
                #expect(try await session.screenKeyboard() == "true")
                let visible = try await session.property(
                    "Visible", of: "/sm/puri/OSK0", interface: "sm.puri.OSK0", at: "sm.puri.OSK0")
                #expect(visible.unwrapped.boolValue == true)
                #expect(!FileManager.default.fileExists(atPath: session.home.path + "/state/kblink/osk-agent.json"))
            }
        }
    }

    @Test("the agent survives kblinkd going away and follows the new one")
    func kblinkdComesAndGoes() async throws {
        try await withDesktopSession { session in
            try await session.setScreenKeyboard(true)
            try await withDaemon(devices: [Self.disconnectedAula()], options: Self.grace(.seconds(1))) { harness in
                let agent = try await session.agent(kblinkBus: harness.bus.address)
                try await harness.bluez.setConnected(Self.aula, true)
                #expect(try await eventually { try await session.screenKeyboard() == "false" })

                await harness.service.stop()
                #expect(await eventually { !agent.lines(containing: "kblinkd left the bus").isEmpty })
                #expect(try await session.screenKeyboard() == "false")
                try await harness.bluez.setConnected(Self.aula, false)

                // A new kblinkd comes up: no keyboard now, so the agent lets the on-screen keyboard back.
                let connection = try await harness.bus.connect()
                var options = KeyboardLinkService.Options(stateDirectory: harness.stateDirectory)
                options.presence = PresenceSettings(gracePeriod: .seconds(1))
                let service = KeyboardLinkService(connection: connection, options: options, log: { _, _ in })
                try await service.start()
                #expect(try await eventually { try await session.screenKeyboard() == "true" })
                #expect(agent.lines(containing: "kblinkd says").count == 2)
                await service.stop()
                await connection.close()
            }
        }
    }
}
