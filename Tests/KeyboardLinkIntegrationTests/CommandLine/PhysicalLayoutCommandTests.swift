import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink keymap physical-layout list|set` against `kblinkd-demo`, whose Aula F87 (ZMK Studio) has two physical
/// layouts: the full one and one without the function row. A switch is saved on the keyboard and the keymap is read
/// again on the new key positions; a draft with unpushed edits is never read over without --force.
@Suite("Physical layouts of a ZMK Studio keyboard")
struct PhysicalLayoutCommandTests {
    private static func layouts(_ demo: DemoDaemon) async throws -> [[String: Any]] {
        let list = try #require(
            try DemoDaemon.json(try await demo.ok(["keymap", "physical-layout", "list", "aula", "--json"]))
                as? [String: Any])
        return try #require(list["layouts"] as? [[String: Any]])
    }

    @Test("list, switch (refused over unpushed edits unless --force, undoable), keys off the layout left alone")
    func listAndSwitch() async throws {
        try await DemoDaemon.run(["--studio-layers", "2"]) { demo in
            let layouts = try await Self.layouts(demo)
            #expect(layouts.map { $0["name"] as? String } == ["AULA F87", "Compact (no function row)"])
            #expect(layouts.map { $0["keys"] as? Int } == [87, 71])
            #expect(layouts.map { $0["active"] as? Bool } == [true, false])
            let text = try await demo.ok(["keymap", "physical-layout", "list", "aula"])
            #expect(text.contains("Compact (no function row)") && text.contains("INDEX"), "\(text)")
            let f1 = try await CLITrustTests.layer(demo, 0)["F1"]
            let before = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "pull", "aula", "--json"])) as? [String: Any])
            let unknown = try #require(before["unknown"] as? Int)

            // An unpushed edit: the switch is refused, the keyboard keeps its layout and the draft its edit.
            _ = try await demo.ok(["keymap", "set", "aula", "A", "KC_B"])
            let refused = try await demo.kblink(["keymap", "physical-layout", "set", "aula", "1"])
            #expect(refused.status != 0)
            #expect(refused.standardError.contains("--force"), "\(refused.standardError)")
            #expect(try await Self.layouts(demo).map { $0["active"] as? Bool } == [true, false])
            #expect(try await CLITrustTests.layer(demo, 0)["A"] == "KC_B")

            let switched = try #require(
                try DemoDaemon.json(
                    try await demo.ok(["keymap", "physical-layout", "set", "aula", "1", "--force", "--json"]))
                    as? [String: Any])
            #expect(switched["index"] as? Int == 1 && switched["name"] as? String == "Compact (no function row)")
            let pull = try #require(switched["pull"] as? [String: Any])
            // The 16 function-row keys are not on the compact layout: read as cleared on both layers.
            #expect(pull["unknown"] as? Int == unknown + 32)
            #expect(pull["undoable"] as? Bool == true)
            #expect(try await Self.layouts(demo).map { $0["active"] as? Bool } == [false, true])
            let layer0 = try await CLITrustTests.layer(demo, 0)
            #expect(layer0["A"] != "KC_B" && layer0["F1"] == "KC_NO")
            // Keys the layout places are where they were: the edit comes back with undo and pushes to the same key.
            _ = try await demo.ok(["keymap", "undo", "aula"])
            #expect(try await CLITrustTests.layer(demo, 0)["A"] == "KC_B")
            let push = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "push", "aula", "--json"])) as? [String: Any])
            #expect(push["written"] as? Int == 1, "\(push)")

            // A draft binding a key the active layout does not place: a dry run names it, a push refuses it.
            _ = try await demo.ok(["keymap", "set", "aula", "F1", "KC_MUTE"])
            let dryRun = try await demo.kblink(["keymap", "push", "aula", "--dry-run"])
            #expect(dryRun.status == 1)
            #expect(dryRun.standardError.contains("F1 on layer 0"), "\(dryRun.standardError)")
            #expect(dryRun.standardError.contains("active physical layout"), "\(dryRun.standardError)")
            #expect(try await demo.kblink(["keymap", "push", "aula"]).status != 0)
            _ = try await demo.ok(["keymap", "discard", "aula"])

            // Back to the full layout: the function row is read again, as the keyboard kept it.
            _ = try await demo.ok(["keymap", "physical-layout", "set", "aula", "0"])
            let back = try await CLITrustTests.layer(demo, 0)
            #expect(back["F1"] == f1 && back["A"] == "KC_B")
        }
    }

    @Test("bad input: a layout the keyboard lacks, an index that is not one, --force elsewhere, a missing INDEX")
    func refusals() async throws {
        try await DemoDaemon.run { demo in
            let missing = try await demo.kblink(["keymap", "physical-layout", "set", "aula", "7"])
            #expect(missing.status != 0)
            #expect(missing.standardError.contains("no physical layout 7"), "\(missing.standardError)")
            #expect(missing.standardError.contains("Compact (no function row)"), "\(missing.standardError)")
            for arguments in [
                ["keymap", "physical-layout", "set", "aula", "256"],
                ["keymap", "physical-layout", "set", "aula", "-1"],
                ["keymap", "physical-layout", "set", "aula"],
                ["keymap", "physical-layout", "list", "aula", "1"],
                ["keymap", "physical-layout", "list", "aula", "--force"],
                ["keymap", "physical-layout", "switch", "aula", "1"],
                ["keymap", "pull", "aula", "--force"],
            ] {
                let result = try await demo.kblink(arguments)
                #expect(result.status == 2, "\(arguments): \(result.standardError)")
            }
            #expect(try await Self.layouts(demo).map { $0["active"] as? Bool } == [true, false])
        }
    }

    @Test("a VIA keyboard has one physical layout: both are refused, naming why")
    func via() async throws {
        try await DemoDaemon.run { demo in
            _ = try await demo.ok(["connect", "vgn"])
            let list = try await demo.kblink(["keymap", "physical-layout", "list", "vgn"])
            #expect(list.status != 0)
            #expect(list.standardError.contains("one physical layout"), "\(list.standardError)")
            let set = try await demo.kblink(["keymap", "physical-layout", "set", "vgn", "0"])
            #expect(set.status != 0)
            #expect(set.standardError.contains("one physical layout"), "\(set.standardError)")
        }
    }
}
