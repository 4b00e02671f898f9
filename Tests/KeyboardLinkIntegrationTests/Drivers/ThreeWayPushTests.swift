import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Issue 26's acceptance: a push changes what the user changed. The simulated keyboards hold their owner's keymap
/// (`SimulatedOwnerKeymap`: every layer-0 key differs from kblink's default), read into the base when kblinkd first
/// reaches them.
@Suite("Three-way push: only the user's edits reach the keyboard")
struct ThreeWayPushTests {
    /// The draft's layer-0 bindings of every zone, key name to action.
    static func layer0(_ keymap: KeymapClient) async throws -> [String: String] {
        var result: [String: String] = [:]
        for zone in try await keymap.state().zones {
            for binding in try await keymap.bindings(zone: zone, layer: 0) { result[binding.key] = binding.action }
        }
        return result
    }

    /// Whether no layer-0 key of the draft holds what kblink's default keymap gives it.
    static func differsEverywhere(_ keymap: KeymapClient, _ layout: PhysicalLayout) async throws -> Bool {
        let defaults = Keymap(defaultsFor: layout, layerCount: 1)
        let draft = try await layer0(keymap)
        return layout.keys.allSatisfy { key in
            draft[key.name.rawValue] != defaults.action(layer: 0, key: key.name)?.description
        }
    }

    @Test("ZMK Studio: set one key on a keyboard unlike kblink's default, push writes exactly it; pull changes nothing")
    func studioOneKey() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            #expect(try await keymap.state().baseOrigin == "keyboard")
            #expect(try await Self.differsEverywhere(keymap, fixture.layout))
            let original = await fixture.keyboard.firmware.savedKeymap
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_F13")
            let result = try await keymap.push()
            #expect(result.written == 1 && result.saved && result.verified)
            #expect(result.changes.map(\.key) == ["CAPS"] && result.kept.isEmpty)
            let firmware = await fixture.keyboard.firmware
            #expect(
                StudioPushFixture.differences(original, firmware.savedKeymap) == [[0, try fixture.position("CAPS")]])
            let state = try await keymap.state()
            #expect(state.baseOrigin == "pushed" && state.baseSince > 0 && !state.dirty)
            let before = try await keymap.exportProfile()
            let pull = try await keymap.pull()
            #expect(pull.changed == 0)
            #expect(try await keymap.exportProfile() == before)
        }
    }

    @Test("VIA: set one key on a keyboard unlike kblink's default, push writes exactly it; the owner's macro stays")
    func viaOneKey() async throws {
        let layout = try PhysicalLayout.builtIn("vgn-98pro")
        try await VIADaemonFixture.run(keyboard: { _, _ in try SimulatedVIAKeyboard.matching(layout) }) {
            _, keymap, server, _, layout in
            #expect(try await keymap.state().baseOrigin == "keyboard")
            #expect(try await Self.differsEverywhere(keymap, layout))
            let macro = server.keyboard.playableMacro(0)
            #expect(macro == Array(SimulatedOwnerKeymap.viaMacroText.utf8))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_F13")
            let result = try await keymap.push()
            #expect(result.written == 1 && result.macroSlots == 0 && result.saved)
            #expect(server.keyboard.writeLog.count == 1)
            #expect(server.keyboard.playableMacro(0) == macro)
            let before = try await keymap.exportProfile()
            let pull = try await keymap.pull()
            #expect(pull.changed == 0)
            #expect(try await keymap.exportProfile() == before)
        }
    }

    @Test("a key the keyboard changed between reads survives the push, is named, and joins the base")
    func driftIsKept() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let b = await fixture.keyPress(usage: 0x05)
            #expect(await fixture.keyboard.overwrite(layer: 0, position: try fixture.position("A"), with: b))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let result = try await keymap.push()
            #expect(result.written == 1 && result.changes.map(\.key) == ["CAPS"])
            #expect(result.kept.map { "\($0.layer) \($0.key) \($0.keyboard)" } == ["0 A KC_B"])
            #expect(await fixture.keyboard.firmware.savedKeymap[0][try fixture.position("A")] == b)
            #expect(try await Self.layer0(keymap)["A"] == "KC_B")
            #expect(try await keymap.diff().isEmpty)
            let again = try await keymap.push(dryRun: true)
            #expect(again.kept.isEmpty && again.changes.isEmpty)
        }
    }

    @Test("a key both sides changed stops the push, named; --keep-keyboard keeps the keyboard's")
    func conflictStops() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let escape = await fixture.keyPress(usage: 0x29)
            let caps = try fixture.position("CAPS")
            #expect(await fixture.keyboard.overwrite(layer: 0, position: caps, with: escape))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            try await keymap.setBinding(layer: 0, key: "TAB", action: "KC_F13")
            let writes = await fixture.keyboard.firmware.writeRequestCount
            await KeymapFixture.expectError(.conflict, containing: ["CAPS on layer 0", "--keep-keyboard"]) {
                _ = try await keymap.push()
            }
            #expect(await fixture.keyboard.firmware.writeRequestCount == writes)
            #expect(try await keymap.state().dirty)
            let plan = try await keymap.push(dryRun: true)
            #expect(plan.conflicts.map { "\($0.key) \($0.draft) \($0.keyboard)" } == ["CAPS KC_LCTL KC_ESC"])

            let kept = try await keymap.push(keepKeyboard: true)
            #expect(kept.written == 1 && kept.changes.map(\.key) == ["TAB"])
            #expect(kept.kept.map(\.key) == ["CAPS"])
            #expect(await fixture.keyboard.firmware.savedKeymap[0][caps] == escape)
            #expect(try await Self.layer0(keymap)["CAPS"] == "KC_ESC")
            #expect(try await keymap.diff().isEmpty)
        }
    }

    @Test("--overwrite makes the keyboard equal to the draft and counts the keys the user did not edit")
    func overwriteCounts() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let b = await fixture.keyPress(usage: 0x05)
            #expect(await fixture.keyboard.overwrite(layer: 0, position: try fixture.position("A"), with: b))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let plan = try await keymap.push(dryRun: true, overwrite: true)
            #expect(plan.changes.count == 2 && plan.uneditedWrites == 1)
            let result = try await keymap.push(overwrite: true)
            #expect(result.written == 2 && result.uneditedWrites == 1)
            let owners = SimulatedOwnerKeymap.keymap(for: fixture.layout, layerCount: 4)
            #expect(try await Self.layer0(keymap)["A"] == owners.action(layer: 0, key: try KeyName("A"))?.description)
        }
    }

    @Test("a push that arrives while kblinkd reads the keyboard on first contact waits for it and succeeds")
    func pushWaitsForFirstRead() async throws {
        try await StudioPushFixture.run(unlocked: false) { fixture, keymap in
            #expect(try await keymap.state().baseOrigin == "default")
            await fixture.keyboard.unlock()
            // The read holds the keyboard until its notification session ends, which takes 2 s here.
            await fixture.keyboard.gatt.setFaults(
                SimulatedGATTFaults(stopNotifyDelay: .seconds(2)), for: fixture.address)
            let service = fixture.harness.service
            let reading = Task { await service.readKeymapBases() }
            #expect(await eventually { await service.pushes.isReadingOnFirstContact(fixture.address) })
            let watcher = try await fixture.harness.bus.connect()
            let progress = try await watcher.subscribe(
                to: MatchRule(
                    path: KBlink.keyboardPath(fixture.address), interface: KBlink.keymapInterface,
                    member: MemberName("PushProgress")))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_F13")
            let result = try await keymap.push()
            #expect(result.written == 1 && result.saved)
            let first = try #require(await first(of: progress, timeout: .seconds(30)))
            #expect(first.body == [.uint32(0), .uint32(0)], "the push said it waited for the read first")
            await reading.value
            await watcher.close()
        }
    }

    @Test("a push right after a CheckAction that asks the keyboard (nothing learned yet) waits for it, not Busy")
    func pushWaitsForCheck() async throws {
        // Not read on first contact: nothing on this connection learned the firmware's behaviours, so the check
        // asks the keyboard.
        try await StudioPushFixture.run(unlocked: false) { fixture, keymap in
            await fixture.keyboard.unlock()
            // The check holds the keyboard until its notification session ends, which takes 2 s here.
            await fixture.keyboard.gatt.setFaults(
                SimulatedGATTFaults(stopNotifyDelay: .seconds(2)), for: fixture.address)
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_F13")
            // Generous: under load the check (every behaviour listed, then a 2 s StopNotify) takes a while.
            let check = Task { try await keymap.check(action: "KC_F13", callTimeout: .seconds(120)) }
            let service = fixture.harness.service
            #expect(await eventually { await service.pushes.isPushing(fixture.address) })
            let result = try await keymap.push()
            #expect(result.written == 1 && result.saved)
            #expect(try await check.value == nil)
        }
    }

    @Test("CheckAction answers from what the first-contact read learned while a push holds the keyboard")
    func checkWhilePushing() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let service = fixture.harness.service
            // The push holds the keyboard until it is unlocked. Its wait for the unlock starts when the push does and
            // covers the checks below: on two cores at load 12 it ran out at 120 s (the push answered Locked), so it
            // is the daemon's ceiling; only a failing test waits that long.
            await fixture.keyboard.lock()
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_F13")
            let push = Task { try await keymap.push(unlockTimeout: 600, callTimeout: .seconds(720)) }
            #expect(await eventually { await service.pushes.isPushing(fixture.address) })
            let answers = CheckAnswers()
            let checks = Task {
                let supported = try await keymap.check(action: "KC_F14", callTimeout: .seconds(120))
                let unsupported = try await keymap.check(action: "MT(MOD_LCTL, KC_A)", callTimeout: .seconds(120))
                await answers.answered(pushing: await service.pushes.isPushing(fixture.address))
                return (supported, unsupported)
            }
            let whilePushing = await eventually(timeout: .seconds(30)) { await answers.whilePushing == true }
            #expect(whilePushing, "the checks were answered while the push held the keyboard")
            await fixture.keyboard.unlock()
            let (supported, unsupported) = try await checks.value
            #expect(supported == nil)
            #expect(unsupported?.contains("no ZMK Studio binding") == true, "\(unsupported ?? "nil")")
            let result = try await push.value
            #expect(result.written == 1 && result.saved)
        }
    }

    @Test("kblink keymap push: a conflict exits 1 naming the key; --overwrite says how many unedited keys it changed")
    func commandLine() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let address = fixture.address.description
            let escape = await fixture.keyPress(usage: 0x29)
            #expect(await fixture.keyboard.overwrite(layer: 0, position: try fixture.position("CAPS"), with: escape))
            #expect(
                await fixture.keyboard.overwrite(
                    layer: 0, position: try fixture.position("A"), with: await fixture.keyPress(usage: 0x05)))
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let dry = try await KeymapCommandRunner.run(fixture.harness, ["keymap", "push", address, "--dry-run"])
            #expect(dry.status == 1)
            #expect(dry.standardError.contains("CAPS on layer 0"), "\(dry.standardError)")
            #expect(
                dry.standardOutput.contains("would keep 1 binding(s) the keyboard changed"), "\(dry.standardOutput)")
            let refused = try await KeymapCommandRunner.run(fixture.harness, ["keymap", "push", address])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("--keep-keyboard"), "\(refused.standardError)")
            let both = try await KeymapCommandRunner.run(
                fixture.harness, ["keymap", "push", address, "--overwrite", "--keep-keyboard"])
            #expect(both.status == 2)
            let overwrite = try await KeymapCommandRunner.run(
                fixture.harness, ["keymap", "push", address, "--overwrite"])
            #expect(overwrite.status == 0, "\(overwrite.standardError)")
            #expect(
                overwrite.standardOutput.contains("--overwrite changed 1 binding(s) the draft had not edited"),
                "\(overwrite.standardOutput)")
            let show = try await KeymapCommandRunner.run(fixture.harness, ["keymap", "show", address])
            #expect(show.standardOutput.contains("the draft's base: what the last push left on the keyboard at "))
        }
    }
}

/// Whether `CheckAction`s were answered while a push still held the keyboard.
private actor CheckAnswers {
    var whilePushing: Bool?

    func answered(pushing: Bool) { whilePushing = pushing }
}
