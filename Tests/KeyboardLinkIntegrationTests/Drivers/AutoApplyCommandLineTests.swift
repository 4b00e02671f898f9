import Foundation
import KeyboardLink
import Testing

/// `kblink keymap auto-apply` and `kblink keymap push --apply-on-connect` run as processes against the daemon and
/// the simulated ZMK Studio keyboard.
@Suite("kblink keymap auto-apply")
struct AutoApplyCommandLineTests {
    @Test("auto-apply on before a push fails saying to push; push --apply-on-connect turns it on; off turns it off")
    func onOff() async throws {
        try await StudioPushFixture.run { fixture, keymap in
            let harness = fixture.harness
            let address = fixture.address.description
            let early = try await KeymapCommandRunner.run(harness, ["keymap", "auto-apply", address, "on"])
            #expect(early.status == 1)
            #expect(early.standardError.contains("push first"), "\(early.standardError)")

            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let push = try await KeymapCommandRunner.run(
                harness, ["keymap", "push", address, "--apply-on-connect", "--json"])
            #expect(push.status == 0, "\(push.standardError)")
            let pushed = try #require(
                try JSONSerialization.jsonObject(with: Data(push.standardOutput.utf8)) as? [String: Any])
            #expect(pushed["applyOnConnect"] as? Bool == true)
            #expect(pushed["written"] as? Int == 1)
            #expect(try await keymap.applyOnConnect())

            let shown = try await KeymapCommandRunner.run(harness, ["keymap", "auto-apply", address, "--json"])
            #expect(shown.status == 0, "\(shown.standardError)")
            let state = try #require(
                try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [String: Any])
            #expect(state["applyOnConnect"] as? Bool == true)
            #expect(state["address"] as? String == address)

            let off = try await KeymapCommandRunner.run(harness, ["keymap", "auto-apply", address, "off"])
            #expect(off.status == 0, "\(off.standardError)")
            #expect(off.standardOutput.contains("auto-apply is off"))
            #expect(try await keymap.applyOnConnect() == false)
        }
    }

    @Test("usage errors: a bad value, the flag with dry-run, both flags, flags on other subcommands")
    func usage() async throws {
        try await StudioPushFixture.run { fixture, _ in
            let harness = fixture.harness
            let address = fixture.address.description
            for arguments in [
                ["keymap", "auto-apply", address, "maybe"],
                ["keymap", "push", address, "--dry-run", "--apply-on-connect"],
                ["keymap", "push", address, "--apply-on-connect", "--no-apply-on-connect"],
                ["keymap", "diff", address, "--apply-on-connect"],
            ] {
                let result = try await KeymapCommandRunner.run(harness, arguments)
                #expect(result.status == 2, "\(arguments): \(result.standardError)")
            }
            let help = try await KeymapCommandRunner.run(harness, ["keymap", "--help"])
            #expect(help.standardOutput.contains("kblink keymap auto-apply DEVICE [on|off] [--json]"))
            #expect(help.standardOutput.contains("--[no-]apply-on-connect"))
        }
    }
}
