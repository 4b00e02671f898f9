import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Apply on connect with a simulated ZMK Studio keyboard (the Aula F87 over GATT): a keyboard changed behind the
/// daemon's back gets its pushed keymap back when it reconnects, and only when its profile asks for it.
@Suite("Re-apply on connect: ZMK Studio")
struct StudioReapplyTests {
    static let address = SimulatedStudioKeyboard.aulaF87Device.address

    /// The daemon with the Aula F87 attached and unlocked; `locksOnDisconnect` as ZMK's Kconfig option.
    static func run(
        locksOnDisconnect: Bool = false, faults: Set<SimulatedStudioFirmware.Fault> = [],
        _ body: (ReapplyDaemon, KeymapClient, SimulatedStudioKeyboard, PhysicalLayout) async throws -> Void
    ) async throws {
        try await withReapplyDaemon(devices: [SimulatedStudioKeyboard.aulaF87Device], keymapOf: address) {
            daemon, keymap in
            let layout = try PhysicalLayout.builtIn("aula-f87")
            let gatt = daemon.bluez.gatt
            #expect(await eventually { await gatt.profile(for: address) != nil })
            let keyboard = SimulatedStudioKeyboard(
                firmware: SimulatedStudioKeyboard.firmware(
                    matching: layout, faults: faults, locksOnDisconnect: locksOnDisconnect),
                address: address, gatt: gatt)
            await keyboard.attach()
            await keyboard.unlock()
            try await body(daemon, keymap, keyboard, layout)
        }
    }

    /// A Key Press binding of a keyboard-page usage, as ZMK encodes it (page << 16 | id).
    static func keyPress(_ usage: UInt32, _ keyboard: SimulatedStudioKeyboard) async -> StudioBehaviorBinding {
        let id = await keyboard.firmware.behaviorID(named: "Key Press") ?? 0
        return StudioBehaviorBinding(behaviorID: Int32(id), param1: 0x07 << 16 | usage)
    }

    static func position(_ key: String, _ layout: PhysicalLayout) throws -> Int {
        try #require(layout.keys.firstIndex { $0.name.rawValue == key })
    }

    /// Pushes CAPS -> KC_LCTL, then changes three bindings on the keyboard behind the daemon's back: CAPS back to
    /// Caps Lock, A to B on layer 0, Q to 1 on layer 1. Returns the keymap the push left on the keyboard.
    static func pushThenDrift(
        _ keymap: KeymapClient, _ keyboard: SimulatedStudioKeyboard, _ layout: PhysicalLayout, applyOnConnect: Bool?
    ) async throws -> [[StudioBehaviorBinding]] {
        try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
        let result = try await keymap.push(applyOnConnect: applyOnConnect)
        #expect(result.written == 1 && result.saved)
        let pushed = await keyboard.firmware.savedKeymap
        await keyboard.overwrite(layer: 0, position: try position("CAPS", layout), with: await keyPress(0x39, keyboard))
        await keyboard.overwrite(layer: 0, position: try position("A", layout), with: await keyPress(0x05, keyboard))
        await keyboard.overwrite(layer: 1, position: try position("Q", layout), with: await keyPress(0x1E, keyboard))
        #expect(await keyboard.firmware.savedKeymap != pushed)
        return pushed
    }

    @Test("apply on connect: the drifted bindings are written back at reconnect, logged and signalled")
    func driftIsReapplied() async throws {
        try await Self.run { daemon, keymap, keyboard, layout in
            let pushed = try await Self.pushThenDrift(keymap, keyboard, layout, applyOnConnect: true)
            #expect(try await keymap.state().applyOnConnect)
            let writesBefore = await keyboard.firmware.writeRequestCount
            let watcher = try await daemon.bus.connect()
            let signals = try await watcher.subscribe(
                to: MatchRule(
                    path: KBlink.keyboardPath(Self.address), interface: KBlink.keymapInterface,
                    member: MemberName("Reapplied")))
            try await daemon.reconnect(Self.address) { await keyboard.linkDropped() }
            await keyboard.linkRestored()
            let signal = await first(of: signals, timeout: .seconds(60))
            await watcher.close()
            let rows = try #require(signal).body.first.map {
                try [DBusStruct<UInt32, String, String, String>](dbusValue: $0)
            }
            let changes = try #require(rows).map { "\($0.fields.0) \($0.fields.1) \($0.fields.2)->\($0.fields.3)" }
            // A goes back to what its owner had put there (the keyboard's keymap was the base of the push).
            let ownersA = try #require(
                SimulatedOwnerKeymap.keymap(for: layout, layerCount: 4).action(layer: 0, key: try KeyName("A")))
            #expect(changes == ["0 CAPS KC_CAPS->KC_LCTL", "0 A KC_B->\(ownersA)", "1 Q KC_1->KC_TRNS"])
            let firmware = await keyboard.firmware
            #expect(firmware.savedKeymap == pushed)
            #expect(!firmware.hasUnsavedChanges)
            // Three set_layer_binding and one save_changes: the drifted bindings only.
            #expect(firmware.writeRequestCount - writesBefore == 4)
            let level = await daemon.waitForLog("re-applied the profile: 3 binding(s) had drifted")
            #expect(level == .notice)
            #expect(
                daemon.logCount("layer 0 CAPS KC_CAPS->KC_LCTL, layer 0 A KC_B->\(ownersA), layer 1 Q KC_1->KC_TRNS")
                    == 1)
            #expect(try await keymap.state().dirty == false)
        }
    }

    @Test("apply on connect off: the keyboard keeps its drift")
    func offKeepsDrift() async throws {
        try await Self.run { daemon, keymap, keyboard, layout in
            _ = try await Self.pushThenDrift(keymap, keyboard, layout, applyOnConnect: nil)
            #expect(try await keymap.state().applyOnConnect == false)
            let drifted = await keyboard.firmware.savedKeymap
            let writesBefore = await keyboard.firmware.writeRequestCount
            try await daemon.reconnect(Self.address) { await keyboard.linkDropped() }
            await keyboard.linkRestored()
            // The first "off" was the connection at start.
            #expect(await daemon.waitForLog("apply on connect is off", occurrence: 2) == .debug)
            #expect(await keyboard.firmware.savedKeymap == drifted)
            #expect(await keyboard.firmware.writeRequestCount == writesBefore)
            #expect(daemon.logCount("re-applied") == 0)
        }
    }

    @Test("apply on connect with no drift: the keyboard is read, nothing is written")
    func noDriftNoWrites() async throws {
        try await Self.run { daemon, keymap, keyboard, _ in
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            #expect(try await keymap.push(applyOnConnect: true).written == 1)
            let writesBefore = await keyboard.firmware.writeRequestCount
            let requestsBefore = await keyboard.firmware.requestLog.count
            try await daemon.reconnect(Self.address) { await keyboard.linkDropped() }
            await keyboard.linkRestored()
            #expect(await daemon.waitForLog("holds its profile; nothing to re-apply") == .debug)
            #expect(await keyboard.firmware.writeRequestCount == writesBefore)
            // It did read the keyboard (the keymap request at least).
            #expect(await keyboard.firmware.requestLog.count > requestsBefore)
            #expect(daemon.logCount("re-applied") == 0)
        }
    }

    @Test("the flag survives a daemon restart, and a keyboard found connected at start is re-applied")
    func flagPersists() async throws {
        try await Self.run { daemon, keymap, keyboard, layout in
            let pushed = try await Self.pushThenDrift(keymap, keyboard, layout, applyOnConnect: true)
            await daemon.stopService()
            let file = KeymapFixture.profilePath(daemon.stateDirectory, Self.address)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.contains("\"applyOnConnect\" : true"))
            #expect(text.contains("\"baseOnDevice\" : true"))
            try await daemon.startService()
            #expect(await daemon.waitForLog("re-applied the profile: 3 binding(s) had drifted") == .notice)
            #expect(await keyboard.firmware.savedKeymap == pushed)
            #expect(try await keymap.state().applyOnConnect)
            // Turning it off is saved too.
            try await keymap.setApplyOnConnect(false)
            #expect(try !String(contentsOfFile: file, encoding: .utf8).contains("applyOnConnect"))
            #expect(try await keymap.applyOnConnect() == false)
        }
    }

    @Test("a keyboard that locked on disconnect asks for its unlock key, then gets the profile back")
    func lockedThenReapplied() async throws {
        try await Self.run(locksOnDisconnect: true) { daemon, keymap, keyboard, layout in
            let pushed = try await Self.pushThenDrift(keymap, keyboard, layout, applyOnConnect: true)
            let watcher = try await daemon.bus.connect()
            let prompts = try await watcher.subscribe(
                to: MatchRule(
                    interface: KBlink.managerInterface, member: KBlinkContract.Manager.pairingPromptSignal.name))
            try await daemon.reconnect(Self.address) { await keyboard.linkDropped() }
            await keyboard.linkRestored()
            #expect(await keyboard.firmware.lockState == .locked)
            let prompt = await first(of: prompts, timeout: .seconds(60))
            await watcher.close()
            #expect(try PairingPromptSignal(body: try #require(prompt).body).prompt.kind == .unlock)
            await keyboard.unlock()
            #expect(await daemon.waitForLog("re-applied the profile: 3 binding(s)") == .notice)
            #expect(await keyboard.firmware.savedKeymap == pushed)
        }
    }

    @Test("a re-apply the keyboard refuses logs a warning, rolls back and is not retried on that connection")
    func failureIsLoggedOnce() async throws {
        // The push makes set_layer_binding call 1; the re-apply's first write is call 2 and is refused.
        try await Self.run(faults: [.failSetLayerBinding(call: 2)]) { daemon, keymap, keyboard, layout in
            _ = try await Self.pushThenDrift(keymap, keyboard, layout, applyOnConnect: true)
            let drifted = await keyboard.firmware.savedKeymap
            // A slow StopNotify: the failed re-apply's session must be over before the next push starts its own
            // (bluetoothd keeps one per client), or that push's answers would never come.
            await keyboard.gatt.setFaults(SimulatedGATTFaults(stopNotifyDelay: .milliseconds(100)), for: Self.address)
            try await daemon.reconnect(Self.address) { await keyboard.linkDropped() }
            await keyboard.linkRestored()
            #expect(await daemon.waitForLog("could not re-apply the profile on connect") == .warning)
            // The re-apply ended its notification session before it said so.
            #expect(await !keyboard.gatt.isNotifying(StudioDriver.characteristicUUID, for: Self.address))
            let firmware = await keyboard.firmware
            #expect(firmware.savedKeymap == drifted)
            #expect(firmware.activeKeymap == drifted)
            #expect(!firmware.hasUnsavedChanges)
            #expect(try await keymap.state().applyOnConnect)
            // A later push still works: the daemon is alive and the keyboard is free. A push writes the user's edits
            // only, so it would keep the three bindings the keyboard changed (and say so); --overwrite writes them.
            let plan = try await keymap.push(dryRun: true)
            #expect(plan.changes.isEmpty && plan.kept.count == 3)
            let again = try await keymap.push(overwrite: true)
            #expect(again.written == 3 && again.uneditedWrites == 3)
            #expect(await !keyboard.gatt.isNotifying(StudioDriver.characteristicUUID, for: Self.address))
            #expect(daemon.logCount("could not re-apply") == 1)
        }
    }
}
