import Foundation
import KeyboardLink
import Testing

/// `kblink keymap pull` run as a process against the daemon and the simulated ZMK Studio keyboard.
@Suite("kblink keymap pull")
struct PullCommandLineTests {
    @Test("--json answers the counts; the human summary says how many differed and how to take it back")
    func pull() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let keyboard = fixture.keyboard
            let address = fixture.address.description
            #expect(
                await keyboard.overwrite(
                    layer: 0, position: try fixture.position("CAPS"), with: await fixture.keyPress(usage: 0xE0)))
            let json = try await KeymapCommandRunner.run(fixture.harness, ["keymap", "pull", address, "--json"])
            #expect(json.status == 0, "\(json.standardError)")
            let answer = try #require(
                try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            #expect(answer["ok"] as? Bool == true)
            #expect(answer["address"] as? String == address)
            #expect(answer["driver"] as? String == "zmk-studio")
            #expect(answer["changed"] as? Int == 1)
            #expect(answer["bindings"] as? Int == 4 * fixture.layout.keys.count)
            #expect(answer["layers"] as? Int == 4)
            #expect(answer["deviceLayers"] as? Int == 4)
            #expect(answer["macros"] as? Int == 0)
            #expect(answer["unknown"] as? Int == 0)
            // The draft had no edits: the keyboard's keymap became the base, nothing to undo.
            #expect(answer["dirty"] as? Bool == false)
            #expect(answer["undoable"] as? Bool == false)
            #expect(answer["baseOrigin"] as? String == "keyboard")
            #expect(try await keymap.diff().isEmpty)

            // With an edit in the draft, the pull replaces it as one edit, which undo brings back.
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            #expect(
                await keyboard.overwrite(
                    layer: 0, position: try fixture.position("CAPS"), with: await fixture.keyPress(usage: 0x39)))
            let human = try await KeymapCommandRunner.run(fixture.harness, ["keymap", "pull", address])
            #expect(human.status == 0, "\(human.standardError)")
            #expect(
                human.standardOutput
                    == "pulled \(4 * fixture.layout.keys.count) binding(s) on 4 layer(s) from Aula F87 over "
                    + "zmk-studio: 2 differed from the draft; it is the base now, and 'kblink keymap undo' brings "
                    + "the draft's edits back on it\n")
            let undo = try await KeymapCommandRunner.run(fixture.harness, ["keymap", "undo", address])
            #expect(undo.status == 0, "\(undo.standardError)")
            #expect(try await keymap.diff().map(\.key) == ["ESC"])
        }
    }

    @Test("pull of a keyboard with no firmware protocol exits non-zero with the daemon's message")
    func notSupported() async throws {
        var device = SimulatedDevice.vgn98Pro
        device.connected = true
        try await withDaemon(devices: [device]) { harness in
            await harness.service.pushes.setVIALinks(VIADriverLinks { _ in nil })
            let pull = try await KeymapCommandRunner.run(harness, ["keymap", "pull", device.address.description])
            #expect(pull.status != 0)
            #expect(pull.standardError.contains("ZMK Studio or VIA"), "\(pull.standardError)")
        }
    }

    @Test("--help names the subcommand and push options are refused with pull")
    func usage() async throws {
        try await withDaemon(devices: []) { harness in
            let help = try await KeymapCommandRunner.run(harness, ["keymap", "--help"])
            #expect(help.status == 0)
            #expect(help.standardOutput.contains("kblink keymap pull DEVICE [--json]"))
            let wrong = try await KeymapCommandRunner.run(
                harness, ["keymap", "pull", "AA:BB:CC:DD:EE:FF", "--dry-run"])
            #expect(wrong.status == 2, "\(wrong.standardError)")
        }
    }
}
