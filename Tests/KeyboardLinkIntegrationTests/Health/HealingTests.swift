import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// kblinkd heals a keyboard that BlueZ shows connected while no input device exists for it (docs/health.md), on
/// the simulator playing both BlueZ and the kernel's input devices.
@Suite("Healing keyboards without an input device", .serialized)
struct HealingTests {
    static let aula = SimulatedDevice.aulaF87.address

    static func aula(_ behavior: SimulatedDevice.InputDeviceBehavior) -> SimulatedDevice {
        var device = SimulatedDevice.aulaF87
        device.inputDevice = behavior
        return device
    }

    @Test("an input device at once: working, no healing call, the reconnect time recorded")
    func atOnce() async throws {
        try await withHealthDaemon(devices: [Self.aula(.atConnection)], health: HealthDaemon.patientHealth) {
            daemon in
            #expect(try await daemon.settles(Self.aula, at: .working))
            try await daemon.bluez.setConnected(Self.aula, false)
            #expect(try await daemon.settles(Self.aula, at: .asleep))
            try await daemon.bluez.setConnected(Self.aula, true)
            #expect(try await daemon.settles(Self.aula, at: .working))
            let report = try await daemon.report(Self.aula)
            #expect(report.heals.isEmpty)
            #expect(report.reconnectTimes.count == 1)
            #expect(await daemon.bluez.healingCalls(of: Self.aula) == .init())
            #expect(try await eventually { try await daemon.service.presence().attached })
        }
    }

    @Test("a keypad's input node, which is no keyboard by systemd's rule, is working: never healed, never attached")
    func keypadNode() async throws {
        var keypad = Self.aula(.atConnection)
        keypad.inputDeviceIsKeyboard = false
        try await withHealthDaemon(devices: [keypad]) { daemon in
            #expect(try await daemon.settles(Self.aula, at: .working))
            #expect(await daemon.bluez.healingCalls(of: Self.aula) == .init())
            #expect(try await daemon.report(Self.aula).heals.isEmpty)
            // Presence counts keyboards: the keypad's node is not one; BlueZ's connected keyboard still is.
            let presence = try await daemon.service.presence()
            #expect(!presence.keyboards.contains { $0.source == .evdev })
        }
    }

    @Test("an input device that appears late, within the deadline: working without any healing step")
    func late() async throws {
        try await withHealthDaemon(devices: [Self.aula(.late(.milliseconds(150)))], health: HealthDaemon.patientHealth)
        {
            daemon throws in
            #expect(try await daemon.settles(Self.aula, at: .working))
            #expect(await daemon.bluez.healingCalls(of: Self.aula) == .init())
            #expect(try await daemon.report(Self.aula).heals.isEmpty)
        }
    }

    /// A classic (BR/EDR) HID keyboard, connected.
    static let vgn = SimulatedDevice.vgn98Pro.address

    static func vgn(_ behavior: SimulatedDevice.InputDeviceBehavior) -> SimulatedDevice {
        var device = SimulatedDevice.vgn98Pro
        device.connected = true
        device.inputDevice = behavior
        return device
    }

    @Test("the simulator's ConnectProfile answers as bluetoothd's: fails for an LE keyboard, connects a classic one")
    func simulatedConnectProfile() async throws {
        try await withHealthDaemon(
            devices: [Self.aula(.never), Self.vgn(.afterConnectProfile)], health: HealthDaemon.patientHealth
        ) { daemon in
            let connection = try await daemon.bus.connect()
            defer { Task { await connection.close() } }
            func connectProfile(_ address: BluetoothAddress, _ uuid: String) async throws {
                let path = try #require(await daemon.bluez.path(of: address))
                let device = DBusProxy(
                    connection: connection, destination: BlueZ.service, path: path, interface: BlueZ.deviceInterface)
                try await device.call(BlueZ.Method.connectProfile, [.string(uuid)])
            }
            // bluetoothd sends it over BR/EDR, where an LE-only keyboard has nothing: whichever UUID is asked.
            for uuid in ["00001812-0000-1000-8000-00805f9b34fb", "00001124-0000-1000-8000-00805f9b34fb"] {
                let error = await #expect(throws: DBusError.self) { try await connectProfile(Self.aula, uuid) }
                #expect(error?.name == BlueZ.Error.failed)
                #expect(error?.message == "br-connection-sdp-search")
            }
            #expect(await !daemon.bluez.hasInputDevice(Self.aula))
            // A classic keyboard's HID profile connects, and its input device appears.
            try await connectProfile(Self.vgn, "00001124-0000-1000-8000-00805f9b34fb")
            #expect(await daemon.bluez.hasInputDevice(Self.vgn))
            // Asked again, bluetoothd answers success (its service is connected: -EALREADY becomes an empty reply
            // in src/device.c `connect_profiles`), not AlreadyConnected, and the input device stays.
            try await connectProfile(Self.vgn, "00001124-0000-1000-8000-00805f9b34fb")
            #expect(await daemon.bluez.hasInputDevice(Self.vgn))
        }
    }

    @Test("a classic keyboard's input device only after ConnectProfile: healed by the first step, the heal named")
    func afterConnectProfile() async throws {
        try await withHealthDaemon(devices: [Self.vgn(.afterConnectProfile)]) { daemon in
            #expect(try await daemon.settles(Self.vgn, at: .working))
            #expect(await daemon.bluez.healingCalls(of: Self.vgn) == .init(connectProfile: 1))
            let report = try await daemon.report(Self.vgn)
            #expect(report.heals.map(\.step) == ["connect-profile"])
            #expect(report.heals.map(\.outcome) == ["healed"])
            #expect(report.reconnectTimes.count == 1)
            #expect(await daemon.bluez.hasInputDevice(Self.vgn))
            // kblink info names the heal.
            let info = try await daemon.kblink(["info", Self.vgn.description])
            #expect(info.standardOutput.contains("connect-profile: healed"), "\(info.standardOutput)")
        }
    }

    @Test("an LE keyboard's input device only after disconnect and connect: no ConnectProfile, reconnecting heals")
    func afterReconnect() async throws {
        try await withHealthDaemon(devices: [Self.aula(.afterReconnect)]) { daemon in
            #expect(try await daemon.settles(Self.aula, at: .working))
            #expect(await daemon.bluez.healingCalls(of: Self.aula) == .init(disconnect: 1, connect: 1))
            let report = try await daemon.report(Self.aula)
            #expect(report.heals.map(\.step) == ["reconnect"])
            #expect(report.heals.map(\.outcome) == ["healed"])
        }
    }

    @Test(
        "a reconnect BlueZ announces only as ServicesResolved false and true: the adapter's power-off after it is asleep"
    )
    func reconnectAnnouncedAsServicesResolvedOnly() async throws {
        try await withHealthDaemon(devices: [Self.aula(.afterReconnect)]) { daemon in
            // bluetoothd batches property changes: the heal's disconnection shows no Connected false (finding 15).
            await daemon.bluez.setDisconnectsWithoutAnnouncing(Self.aula, true)
            #expect(try await daemon.settles(Self.aula, at: .working))
            #expect(try await daemon.report(Self.aula).heals.map(\.outcome) == ["healed"])
            await daemon.bluez.setDisconnectsWithoutAnnouncing(Self.aula, false)
            // Not taken for the heal's own disconnection.
            try await daemon.bluez.setPowered(adapter: 0, false)
            #expect(try await daemon.settles(Self.aula, at: .asleep))
        }
    }

    /// Attaches a simulated ZMK Studio firmware holding its owner's keymap to the keyboard, unlocked, and has kblinkd
    /// read that keymap into the base.
    static func attachStudioFirmware(_ daemon: HealthDaemon, _ address: BluetoothAddress) async throws
        -> SimulatedStudioKeyboard
    {
        let keyboard = SimulatedStudioKeyboard(
            firmware: SimulatedStudioKeyboard.firmware(matching: try PhysicalLayout.builtIn("aula-f87")),
            address: address, gatt: daemon.bluez.gatt)
        await keyboard.attach()
        await keyboard.unlock()
        try await daemon.service.readKeymapBases()
        return keyboard
    }

    @Test("a reconnect step waits for a push that holds the keyboard: the push is not cut, then the step heals it")
    func reconnectWaitsForPush() async throws {
        let device = SimulatedStudioKeyboard.aulaF87Device
        let address = device.address
        try await withHealthDaemon(devices: [device]) { daemon in
            #expect(try await daemon.settles(address, at: .working))
            let service = try daemon.service
            let gatt = daemon.bluez.gatt
            let keyboard = try await Self.attachStudioFirmware(daemon, address)
            await keyboard.lock()
            let connection = try await daemon.bus.connect()
            defer { Task { await connection.close() } }
            let keymap = KeymapClient(connection: connection, path: KBlink.keyboardPath(address))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let sessions = await gatt.statistics(for: address).notifySessionsStarted
            // The push holds the keyboard while it waits for the unlock key.
            let push = Task { try await keymap.push() }
            #expect(await eventually { await service.pushes.isPushing(address) })
            // The input device goes away meanwhile: after the deadline the reconnect step is due, and waits.
            daemon.inputDevices.remove(address)
            #expect(await eventually { (try? await daemon.health(address)) == .healing })
            #expect(await daemon.bluez.healingCalls(of: address) == .init())
            await keyboard.unlock()
            let result = try await push.value
            #expect(result.written == 1 && result.saved)
            // The attempt that found it locked and the one after the unlock, neither cut by the step.
            let started = await gatt.statistics(for: address).notifySessionsStarted
            #expect(started == sessions + 2, "\(sessions) -> \(started)")
            #expect(try await daemon.settles(address, at: .working))
            #expect(await daemon.bluez.healingCalls(of: address) == .init(disconnect: 1, connect: 1))
            #expect(try await daemon.report(address).heals.map(\.outcome) == ["healed"])
        }
    }

    /// Starts kblinkd with the Studio Aula working and its firmware attached, lets `prepare` shape how bluetoothd
    /// behaves, edits one key, then takes the keyboard's input device away and pushes while the reconnect step runs.
    /// Checks that the step ran once and healed the keyboard, and hands the push's answer to `check`.
    static func pushWhileReconnectStepRuns(
        prepare: (SimulatedBlueZ, BluetoothAddress) async -> Void,
        check: (PushReport, SimulatedBlueZ, BluetoothAddress) async -> Void
    ) async throws {
        let device = SimulatedStudioKeyboard.aulaF87Device
        let address = device.address
        try await withHealthDaemon(devices: [device]) { daemon in
            #expect(try await daemon.settles(address, at: .working))
            let service = try daemon.service
            let bluez = daemon.bluez
            // Kept until the end: the firmware answers only while its keyboard lives.
            let keyboard = try await Self.attachStudioFirmware(daemon, address)
            await prepare(bluez, address)
            let connection = try await daemon.bus.connect()
            defer { Task { await connection.close() } }
            let keymap = KeymapClient(connection: connection, path: KBlink.keyboardPath(address))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            // The input device goes away: after the deadline the reconnect step runs.
            daemon.inputDevices.remove(address)
            #expect(await eventually { await service.pushes.isHealing(address) })
            let result = try await keymap.push()
            #expect(result.written == 1 && result.saved)
            await check(result, bluez, address)
            #expect(await bluez.healingCalls(of: address) == .init(disconnect: 1, connect: 1))
            #expect(try await daemon.settles(address, at: .working))
            withExtendedLifetime(keyboard) {}
        }
    }

    @Test("a push that arrives while a reconnect step runs waits for it, then writes")
    func pushWaitsForReconnect() async throws {
        try await Self.pushWhileReconnectStepRuns { bluez, address in
            // bluetoothd's disconnect timer, and Connected false seconds after ServicesResolved false (finding 18): a
            // push cut by the step would not be tried again.
            await bluez.setDisconnectTimer(.seconds(2))
            await bluez.setConnectedLingers(address, .seconds(5))
        } check: { _, bluez, address in
            // It waited: it never reached the keyboard while the step was disconnecting it.
            #expect(await bluez.gatt.statistics(for: address).startNotifyRefusedWhileDisconnecting == 0)
        }
    }

    @Test("a push after a reconnect step whose link is announced late, services before objects: waits, then writes")
    func pushWaitsForLinkAfterReconnect() async throws {
        try await Self.pushWhileReconnectStepRuns { bluez, address in
            // bluetoothd answers the step's Connect before its batched signals, and 5.66 announces ServicesResolved
            // before the GATT objects' InterfacesAdded.
            await bluez.setAnnouncesConnectionAfterAnswering(address, .milliseconds(500))
            await bluez.setAnnouncesServicesResolvedFirst(true)
        } check: { result, _, _ in
            #expect(result.driver == "zmk-studio")
        }
    }

    @Test("a classic keyboard whose input device comes only after a reconnect: ConnectProfile first, then reconnect")
    func classicAfterReconnect() async throws {
        try await withHealthDaemon(devices: [Self.vgn(.afterReconnect)]) { daemon in
            #expect(try await daemon.settles(Self.vgn, at: .working))
            #expect(
                await daemon.bluez.healingCalls(of: Self.vgn) == .init(connectProfile: 1, disconnect: 1, connect: 1))
            let report = try await daemon.report(Self.vgn)
            #expect(report.heals.map(\.step) == ["connect-profile", "reconnect"])
            #expect(report.heals.map(\.outcome) == ["no input device", "healed"])
        }
    }

    @Test("never an input device: the budget's steps run once each, then failed with a reason; not attached")
    func never() async throws {
        try await withHealthDaemon(devices: [Self.aula(.never)]) { daemon in
            #expect(try await daemon.settles(Self.aula, at: .failed))
            // Budget 3, an LE keyboard: reconnect three times (no ConnectProfile); nothing pending afterwards.
            #expect(await daemon.bluez.healingCalls(of: Self.aula) == .init(disconnect: 3, connect: 3))
            let report = try await daemon.report(Self.aula)
            #expect(report.heals.map(\.step) == ["reconnect", "reconnect", "reconnect"])
            #expect(report.detail.contains("stopped trying"))
            #expect(report.detail.contains("kblink forget"))
            #expect(try await eventually { try await !daemon.service.presence().attached })
            // One journal line per step, one when healing starts and one for the failure.
            let lines = daemon.healthLines(Self.aula)
            #expect(lines.count == 5, "\(lines)")
            #expect(lines.last?.contains("failed:") == true)
            // The CLI says it in words.
            let list = try await daemon.kblink(["list"])
            #expect(list.standardOutput.contains("FAILED"))
            // ListKeyboards carries the reason: `kblink list --json` shows it without reading each keyboard.
            let listed = try await daemon.kblink(["list", "--json"])
            let keyboards = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
            #expect(keyboards?.first?["healthDetail"] as? String == report.detail, "\(listed.standardOutput)")
            // `kblink status` counts the keyboards by health and lists the failed one with its reason.
            let status = try await daemon.kblink(["status", "--json"])
            let statusObject =
                try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
            #expect(statusObject?["keyboardHealth"] as? [String: Int] == ["failed": 1], "\(status.standardOutput)")
            let attention = statusObject?["needingAttention"] as? [[String: Any]]
            #expect(attention?.count == 1, "\(status.standardOutput)")
            #expect(attention?.first?["health"] as? String == "failed")
            #expect(attention?.first?["healthDetail"] as? String == report.detail)
            let statusText = try await daemon.kblink(["status"])
            #expect(statusText.standardOutput.contains("Keyboards:          1 failed"), "\(statusText.standardOutput)")
            #expect(statusText.standardOutput.contains("FAILED — "), "\(statusText.standardOutput)")
        }
    }

    @Test("the user's disconnect during healing cancels it: disconnected, nothing more tried")
    func userDisconnectCancels() async throws {
        let settings = HealthSettings(deadline: .milliseconds(1500), budget: 3, backoff: .seconds(3600))
        try await withHealthDaemon(devices: [Self.aula(.never)], health: settings) { daemon throws in
            let service = try daemon.service
            // The first step (reconnect) ran and found nothing; the next waits for the (long) backoff.
            #expect(await eventually { await daemon.bluez.healingCalls(of: Self.aula).connect == 1 })
            #expect(try await daemon.health(Self.aula) == .healing)
            let disconnect = try await daemon.kblink(["disconnect", Self.aula.description])
            #expect(disconnect.status == 0, "\(disconnect.standardError)")
            #expect(try await daemon.settles(Self.aula, at: .disconnected))
            #expect(await !service.healthIsPending(Self.aula))
            // The step's Disconnect and Connect, then the user's Disconnect; nothing after it.
            #expect(await daemon.bluez.healingCalls(of: Self.aula) == .init(disconnect: 2, connect: 1))
            #expect(daemon.healthLines(Self.aula).contains { $0.contains("healing canceled by kblink disconnect") })
            #expect(try await daemon.report(Self.aula).detail.contains("kblink connect"))
        }
    }

    @Test("the adapter powered off and on: every keyboard connected on it asleep meanwhile, working again afterwards")
    func adapterPowerCycle() async throws {
        try await withHealthDaemon(
            devices: [Self.aula(.atConnection), Self.vgn(.atConnection)], health: HealthDaemon.patientHealth
        ) { daemon in
            for keyboard in [Self.aula, Self.vgn] { #expect(try await daemon.settles(keyboard, at: .working)) }
            try await daemon.bluez.setPowered(adapter: 0, false)
            for keyboard in [Self.aula, Self.vgn] { #expect(try await daemon.settles(keyboard, at: .asleep)) }
            #expect(try await eventually { try await !daemon.service.presence().attached })
            try await daemon.bluez.setPowered(adapter: 0, true)
            for keyboard in [Self.aula, Self.vgn] {
                #expect(try await daemon.settles(keyboard, at: .working))
                #expect(await daemon.bluez.healingCalls(of: keyboard) == .init())
            }
            #expect(try await eventually { try await daemon.service.presence().attached })
        }
    }

    @Test("the adapter comes back but one keyboard's input device does not: that one healed, the other left alone")
    func adapterPowerCycleThenHeal() async throws {
        try await withHealthDaemon(devices: [Self.aula(.atConnection), Self.vgn(.atConnection)]) { daemon in
            for keyboard in [Self.aula, Self.vgn] { #expect(try await daemon.settles(keyboard, at: .working)) }
            try await daemon.bluez.setPowered(adapter: 0, false)
            for keyboard in [Self.aula, Self.vgn] { #expect(try await daemon.settles(keyboard, at: .asleep)) }
            try await daemon.bluez.setInputDeviceBehavior(Self.aula, .afterReconnect)
            try await daemon.bluez.setPowered(adapter: 0, true)
            for keyboard in [Self.aula, Self.vgn] { #expect(try await daemon.settles(keyboard, at: .working)) }
            #expect(await daemon.bluez.healingCalls(of: Self.aula) == .init(disconnect: 1, connect: 1))
            #expect(await daemon.bluez.healingCalls(of: Self.vgn) == .init())
        }
    }
}
