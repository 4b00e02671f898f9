import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `org.kblink1.Keymap.Pull` from a ZMK Studio keyboard (the simulated Aula F87 over GATT), changed behind the
/// daemon's back; and the errors of a pull.
@Suite("Pull from a ZMK Studio keyboard")
struct StudioPullTests {
    /// A binding of the firmware's behaviour `name` with no parameters.
    static func binding(_ name: String, _ fixture: StudioPushFixture) async throws -> StudioBehaviorBinding {
        let id = try #require(await fixture.keyboard.firmware.behaviorID(named: name))
        return StudioBehaviorBinding(behaviorID: Int32(id))
    }

    @Test("pull after changes on the keyboard: the draft equals it, a push writes nothing, undo restores the draft")
    func pullsChanges() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let keyboard = fixture.keyboard
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            let before = try await keymap.exportProfile()
            // Another Studio client: CAPS to Left Ctrl, Q on layer 1 to 1. ESC keeps the firmware's Escape, so the
            // draft's KC_GRV differs too.
            #expect(
                await keyboard.overwrite(
                    layer: 0, position: try fixture.position("CAPS"), with: await fixture.keyPress(usage: 0xE0)))
            #expect(
                await keyboard.overwrite(
                    layer: 1, position: try fixture.position("Q"), with: await fixture.keyPress(usage: 0x1E)))

            let result = try await keymap.pull()
            #expect(result.driver == "zmk-studio")
            #expect(result.changed == 3)
            #expect(result.layers == 4 && result.deviceLayers == 4)
            #expect(result.bindings == 4 * fixture.layout.keys.count)
            #expect(result.unknown == 0 && result.macros == 0)
            // What the keyboard holds is the base now: the draft equals it.
            #expect(try await keymap.diff().isEmpty)
            #expect(try await keymap.state().baseOrigin == "keyboard")

            // One undo: the draft's edit (ESC) again, on the new base that holds the keyboard's changes.
            try await keymap.undo()
            #expect(try await keymap.exportProfile() != before)
            let undone = try await keymap.diff().map { "\($0.layer) \($0.key) \($0.new) \($0.origin)" }
            #expect(undone == ["0 ESC KC_GRV draft"])
            let bindings = try await keymap.bindings(zone: "standard", layer: 0)
            #expect(bindings.first { $0.key == "CAPS" }?.action == "KC_LCTL")
            try await keymap.redo()

            let writes = await keyboard.firmware.writeRequestCount
            let push = try await keymap.push()
            #expect(push.written == 0 && push.changes.isEmpty)
            #expect(await keyboard.firmware.writeRequestCount == writes)
            #expect(try await keymap.state().dirty == false)
        }
    }

    @Test("a binding kblink cannot express is pulled as the layer's cleared action, counted, and left by a push")
    func unknownBinding() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let unlock = try await Self.binding("Studio Unlock", fixture)
            #expect(await fixture.keyboard.overwrite(layer: 0, position: try fixture.position("F1"), with: unlock))
            #expect(await fixture.keyboard.overwrite(layer: 2, position: try fixture.position("F2"), with: unlock))
            let result = try await keymap.pull()
            #expect(result.unknown == 2)
            // F2 on layer 2 was transparent in the draft already.
            #expect(result.changed == 1)
            #expect(try await keymap.diff().isEmpty)
            // A push leaves them on the keyboard: nobody edited those keys.
            let plan = try await keymap.push(dryRun: true)
            #expect(plan.changes.isEmpty && plan.kept.isEmpty && plan.conflicts.isEmpty)
            // An edit of such a key is written over it.
            try await keymap.setBinding(layer: 0, key: "F1", action: "KC_B")
            let edited = try await keymap.push(dryRun: true)
            #expect(edited.changes.map { "\($0.layer) \($0.key) \($0.new)" } == ["0 F1 KC_B"])
            #expect(edited.changes.first?.old.contains("Studio Unlock") == true, "\(edited.changes)")
        }
    }

    @Test("a locked keyboard prompts for the unlock key and the pull goes on once it is pressed")
    func locked() async throws {
        try await StudioPushFixture.run(unlocked: false) { fixture, keymap in
            #expect(
                await fixture.keyboard.overwrite(
                    layer: 0, position: try fixture.position("CAPS"), with: await fixture.keyPress(usage: 0xE0)))
            let watcher = try await fixture.harness.bus.connect()
            let prompts = try await watcher.subscribe(
                to: MatchRule(
                    interface: KBlink.managerInterface, member: KBlinkContract.Manager.pairingPromptSignal.name))
            let pull = Task { try await keymap.pull() }
            let prompt = await first(of: prompts, timeout: .seconds(60))
            let body = try PairingPromptSignal(body: try #require(prompt).body)
            #expect(body.prompt.kind == .unlock)
            #expect(try await keymap.state().dirty == false)
            await fixture.keyboard.unlock()
            let result = try await pull.value
            // The base was never read (the keyboard was locked): the draft was kblink's default keymap, and every
            // key where the owner's keymap (with CAPS changed) differs from it changed.
            var held = SimulatedOwnerKeymap.keymap(for: fixture.layout, layerCount: 4)
            held.setAction(try KeyAction(parsing: "KC_LCTL"), layer: 0, key: try KeyName("CAPS"))
            let defaults = Keymap(defaultsFor: fixture.layout, layerCount: 4)
            let differing = (0..<4).reduce(0) { count, layer in
                count
                    + fixture.layout.keys.count {
                        held.action(layer: layer, key: $0.name) != defaults.action(layer: layer, key: $0.name)
                    }
            }
            #expect(result.changed == differing)
            #expect(try await keymap.diff().isEmpty)
            #expect(try await keymap.state().baseOrigin == "keyboard")
            await watcher.close()
        }
    }

    @Test("a pull while a push waits for the unlock key is Busy and changes nothing")
    func busy() async throws {
        try await StudioPushFixture.run(unlocked: false) { fixture, keymap in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let watcher = try await fixture.harness.bus.connect()
            let prompts = try await watcher.subscribe(
                to: MatchRule(
                    interface: KBlink.managerInterface, member: KBlinkContract.Manager.pairingPromptSignal.name))
            let push = Task { try await keymap.push(unlockTimeout: 120) }
            #expect(await first(of: prompts, timeout: .seconds(60)) != nil)
            await KeymapFixture.expectError(.busy, containing: ["wait for it to finish", "pull again"]) {
                _ = try await keymap.pull()
            }
            await fixture.keyboard.unlock()
            #expect(try await push.value.written == 1)
            await watcher.close()
        }
    }

    @Test("a link that drops as the pull starts and comes back: the pull reads the keyboard again")
    func linkDropsAndComesBack() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let bluez = fixture.harness.bluez
            let address = fixture.address
            let keyboard = fixture.keyboard
            #expect(
                await keyboard.overwrite(
                    layer: 0, position: try fixture.position("CAPS"), with: await fixture.keyPress(usage: 0xE0)))
            let sessions = await bluez.gatt.statistics(for: address).notifySessionsStarted
            await bluez.gatt.setFaults(SimulatedGATTFaults(dropLinkAtStartNotify: 1), for: address)
            let comesBack = fixture.connectAgainOnceTheLinkDrops()
            let result = try await keymap.pull()
            #expect(try await comesBack.value)
            #expect(result.changed == 1 && result.deviceLayers == 4)
            let bindings = try await keymap.bindings(zone: "standard", layer: 0)
            #expect(bindings.first { $0.key == "CAPS" }?.action == "KC_LCTL")
            // The session that lost its link, then the one that read the keyboard.
            #expect(await bluez.gatt.statistics(for: address).notifySessionsStarted == sessions + 1)
            #expect(await bluez.gatt.profile(for: address)?.faults.dropLinkAtStartNotify == nil)
        }
    }

    @Test(
        "a link that drops as the pull starts and is back before kblinkd learns it: the pull reads the keyboard again")
    func linkBackBeforeTheAnswer() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let bluez = fixture.harness.bluez
            let model = await fixture.harness.service.bluez
            let address = fixture.address
            let path = try #require(await bluez.path(of: address))
            #expect(
                await fixture.keyboard.overwrite(
                    layer: 0, position: try fixture.position("CAPS"), with: await fixture.keyPress(usage: 0xE0)))
            await bluez.gatt.setFaults(
                SimulatedGATTFaults(dropLinkAtStartNotify: 1, holdDroppedStartNotifyAnswer: true), for: address)
            let comesBack = fixture.connectAgainOnceTheLinkDrops()
            let pull = Task { try await keymap.pull() }
            // Not thrown: the held answer is released below whatever happens, so the simulator never keeps it.
            #expect((try? await comesBack.value) == true)
            // kblinkd's model of BlueZ has the keyboard connected with its services resolved again, and the failed
            // StartNotify is still unanswered: when kblinkd learns that it failed, the drop is already over.
            #expect(
                await eventually {
                    let device = await model.current().devices[path]
                    return device?.connected == true && device?.servicesResolved == true
                })
            #expect(await eventually { await bluez.gatt.heldAnswerCount(for: address) == 1 })
            await bluez.gatt.releaseHeldAnswers(for: address)
            let result = try await pull.value
            #expect(result.changed == 1 && result.deviceLayers == 4)
            let bindings = try await keymap.bindings(zone: "standard", layer: 0)
            #expect(bindings.first { $0.key == "CAPS" }?.action == "KC_LCTL")
        }
    }

    @Test("a link that drops as the pull starts and stays down: NotConnected once the wait is over, draft unchanged")
    func linkDropsAndStaysDown() async throws {
        try await StudioPushFixture.run(options: { $0.linkReturnTimeout = .seconds(1) }) { fixture, keymap in
            let bluez = fixture.harness.bluez
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let before = try await keymap.exportProfile()
            await bluez.gatt.setFaults(SimulatedGATTFaults(dropLinkAtStartNotify: 1), for: fixture.address)
            await KeymapFixture.expectError(.notConnected, containing: ["ATT error: 0x0e"]) {
                _ = try await keymap.pull()
            }
            #expect(await bluez.device(fixture.address)?.connected == false)
            #expect(try await keymap.exportProfile() == before)
        }
    }

    @Test("a keyboard that speaks no firmware protocol: NotSupported, the draft unchanged")
    func noDriver() async throws {
        var device = SimulatedDevice.vgn98Pro
        device.connected = true
        let address = device.address
        try await withDaemon(devices: [device]) { harness in
            await harness.service.pushes.setVIALinks(VIADriverLinks { _ in nil })
            try await KeymapFixture.withKeymap(harness, address) { keymap in
                #expect(await eventually { (try? await harness.client().keyboards().first?.connected) == true })
                try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
                let before = try await keymap.exportProfile()
                await KeymapFixture.expectError(.notSupported, containing: ["ZMK Studio or VIA"]) {
                    _ = try await keymap.pull()
                }
                #expect(try await keymap.exportProfile() == before)
            }
        }
    }

    @Test("a keyboard that is not connected: NotConnected, saying to wake it")
    func notConnected() async throws {
        var device = SimulatedDevice.vgn98Pro
        device.connected = false
        let address = device.address
        try await withDaemon(devices: [device]) { harness in
            try await KeymapFixture.withKeymap(harness, address) { keymap in
                await KeymapFixture.expectError(.notConnected, containing: ["pressing a key", "pull again"]) {
                    _ = try await keymap.pull()
                }
            }
        }
    }
}
