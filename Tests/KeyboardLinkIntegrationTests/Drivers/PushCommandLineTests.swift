import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink keymap push` run as a process against the daemon and the simulated ZMK Studio keyboard.
@Suite("kblink keymap push")
struct PushCommandLineTests {
    @Test("--dry-run --json lists the change and writes nothing; a push then writes it")
    func dryRunThenPush() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let address = fixture.address.description
            let dry = try await KeymapCommandRunner.run(
                fixture.harness, ["keymap", "push", address, "--dry-run", "--json"])
            #expect(dry.status == 0, "\(dry.standardError)")
            let plan = try #require(
                try JSONSerialization.jsonObject(with: Data(dry.standardOutput.utf8)) as? [String: Any])
            #expect(plan["dryRun"] as? Bool == true)
            #expect(plan["written"] as? Int == 0)
            let changes = try #require(plan["changes"] as? [[String: Any]])
            #expect(changes.count == 1)
            #expect(changes.first?["key"] as? String == "CAPS")
            let owners = SimulatedOwnerKeymap.keymap(for: fixture.layout, layerCount: 4)
            #expect(changes.first?["old"] as? String == owners.action(layer: 0, key: try KeyName("CAPS"))?.description)
            #expect(changes.first?["new"] as? String == "KC_LCTL")
            #expect(
                await fixture.keyboard.firmware.savedKeymap[0][try fixture.position("CAPS")]
                    != (await fixture.keyPress(usage: 0xE0)))

            let push = try await KeymapCommandRunner.run(fixture.harness, ["keymap", "push", address])
            #expect(push.status == 0, "\(push.standardError)")
            #expect(push.standardOutput.contains("wrote 1 binding(s) over zmk-studio, verified and saved"))
            #expect(
                await fixture.keyboard.firmware.savedKeymap[0][try fixture.position("CAPS")]
                    == (await fixture.keyPress(usage: 0xE0)))
        }
    }

    @Test("a locked keyboard: the command says to press the unlock key and finishes once it is pressed")
    func lockedKeyboard() async throws {
        try await StudioPushFixture.run(unlocked: false) { fixture, keymap in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let watcher = try await fixture.harness.bus.connect()
            let prompts = try await watcher.subscribe(
                to: MatchRule(
                    interface: KBlink.managerInterface, member: KBlinkContract.Manager.pairingPromptSignal.name))
            let harness = fixture.harness
            let address = fixture.address.description
            let command = Task { try await KeymapCommandRunner.run(harness, ["keymap", "push", address]) }
            #expect(await first(of: prompts, timeout: .seconds(60)) != nil)
            await fixture.keyboard.unlock()
            let push = try await command.value
            #expect(push.status == 0, "\(push.standardError)")
            #expect(push.standardError.contains("is locked: Press the keyboard's unlock key."))
            #expect(push.standardOutput.contains("wrote 1 binding(s)"))
            await watcher.close()
        }
    }

    @Test("a failed push exits non-zero with the daemon's message")
    func failedPush() async throws {
        try await StudioPushFixture.run(faults: [.failSetLayerBinding(call: 1)]) { fixture, keymap in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let push = try await KeymapCommandRunner.run(
                fixture.harness, ["keymap", "push", fixture.address.description])
            #expect(push.status != 0)
            #expect(push.standardError.contains("draft is kept"), "\(push.standardError)")
        }
    }
}
