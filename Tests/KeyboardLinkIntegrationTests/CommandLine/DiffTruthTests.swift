import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink keymap diff` tells the truth: staged macros and layers count, and so does what the keyboard itself holds
/// (read as `push --dry-run` reads it). The real `kblink` binary against the daemon and a simulated ZMK Studio
/// keyboard that the test can change behind kblink's back.
@Suite("keymap diff covers macros, layers and the keyboard")
struct DiffTruthTests {
    static func rows(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test("a keyboard changed outside kblink: diff shows base, draft and keyboard, origin keyboard (a push keeps it)")
    func keyboardReset() async throws {
        try await StudioPushFixture.run { fixture, _ in
            let address = fixture.address.description
            let harness = fixture.harness
            #expect(
                try await KeymapCommandRunner.run(harness, ["keymap", "set", address, "CAPS", "KC_F13"]).status == 0)
            // keymap set's pre-flight CheckAction may still hold the keyboard on a loaded machine: the push waits for
            // it (a queued claim), it is never Busy.
            let push = try await KeymapCommandRunner.run(harness, ["keymap", "push", address])
            #expect(push.status == 0, "\(push.standardError)")
            let clean = try await KeymapCommandRunner.run(harness, ["keymap", "diff", address])
            #expect(
                clean.standardOutput.contains("no changes; the draft equals what the keyboard holds"),
                "\(clean.standardError)")

            // The keyboard's CAPS goes back to Caps Lock, as after a reset; the user edits ESC.
            #expect(
                await fixture.keyboard.overwrite(
                    layer: 0, position: try fixture.position("CAPS"), with: await fixture.keyPress(usage: 0x39)))
            #expect(
                try await KeymapCommandRunner.run(harness, ["keymap", "set", address, "ESC", "KC_GRV"]).status == 0)
            let diff = try Self.rows(
                try await KeymapCommandRunner.run(harness, ["keymap", "diff", address, "--json"]).standardOutput)
            #expect(diff.count == 2, "\(diff)")
            let caps = try #require(diff.first { $0["key"] as? String == "CAPS" })
            #expect(caps["old"] as? String == "KC_F13")
            #expect(caps["keyboard"] as? String == "KC_CAPS")
            #expect(caps["origin"] as? String == "keyboard")
            let escape = try #require(diff.first { $0["key"] as? String == "ESC" })
            #expect(escape["new"] as? String == "KC_GRV" && escape["origin"] as? String == "draft")
            let owners = SimulatedOwnerKeymap.keymap(for: fixture.layout, layerCount: 4)
            #expect(escape["keyboard"] as? String == owners.action(layer: 0, key: try KeyName("ESC"))?.description)
            let text = try await KeymapCommandRunner.run(harness, ["keymap", "diff", address])
            #expect(text.standardOutput.contains("BASE") && text.standardOutput.contains("KEYBOARD"))
            #expect(text.standardOutput.contains("a push keeps it"), "\(text.standardOutput)")
            let dry = try await KeymapCommandRunner.run(harness, ["keymap", "push", address, "--dry-run", "--json"])
            let plan = try #require(
                try JSONSerialization.jsonObject(with: Data(dry.standardOutput.utf8)) as? [String: Any])
            let changes = try #require(plan["changes"] as? [[String: Any]])
            #expect(changes.map { $0["key"] as? String } == ["ESC"])
            let kept = try #require(plan["kept"] as? [[String: Any]])
            #expect(kept.map { $0["key"] as? String } == ["CAPS"])
        }
    }

    @Test("a staged macro and a removed layer are changes in diff, as in keymap show's header")
    func macrosAndLayers() async throws {
        try await StudioPushFixture.run { fixture, _ in
            let address = fixture.address.description
            let harness = fixture.harness
            #expect(
                try await KeymapCommandRunner.run(harness, ["macro", "set", address, "sig", "text 'hi'"]).status == 0)
            #expect(
                try await KeymapCommandRunner.run(harness, ["keymap", "layer", "remove", address, "3"]).status == 0)
            let rows = try Self.rows(
                try await KeymapCommandRunner.run(harness, ["keymap", "diff", address, "--json"]).standardOutput)
            #expect(rows.count == 2, "\(rows)")
            #expect(rows.contains { $0["zone"] as? String == "layer" && $0["layer"] as? Int == 3 })
            #expect(
                rows.contains {
                    $0["zone"] as? String == "macro" && $0["key"] as? String == "sig"
                        && $0["new"] as? String == "text 'hi'"
                })
            let text = try await KeymapCommandRunner.run(harness, ["keymap", "diff", address])
            #expect(text.standardOutput.contains("layer 3 removed"), "\(text.standardOutput)")
            #expect(text.standardOutput.contains("macro sig added: text 'hi'"), "\(text.standardOutput)")
            let show = try await KeymapCommandRunner.run(harness, ["keymap", "show", address])
            #expect(show.standardOutput.contains("the draft has changes"))
        }
    }
}
