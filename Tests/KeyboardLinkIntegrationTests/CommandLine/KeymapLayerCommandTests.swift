import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink keymap layer move|copy|rename` against `kblinkd-demo`: layer switches follow, names are shown and
/// exported, each edit is one undo.
@Suite("Layer move, copy and rename")
struct KeymapLayerCommandTests {
    @Test("move renumbers every switch, copy copies, rename shows in keymap show and the ZMK export; undo is one step")
    func layerCommands() async throws {
        try await DemoDaemon.run { demo in
            _ = try await demo.ok(["keymap", "set", "aula", "CAPS", "MO(3)"])
            _ = try await demo.ok(["keymap", "set", "aula", "TAB", "LT(1, KC_TAB)"])
            _ = try await demo.ok(["keymap", "set", "aula", "A", "KC_B", "--layer", "3"])
            let before = try await CLITrustTests.layer(demo, 0)
            let original =
                try #require(
                    try DemoDaemon.json(try await demo.ok(["keymap", "show", "aula", "--layer", "3", "--json"]))
                        as? [String: Any])["layerName"] as? String

            let renamed = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "layer", "rename", "aula", "3", "Symbols", "--json"]))
                    as? [String: Any])
            #expect((renamed["layerNames"] as? [String])?[3] == "Symbols")
            let diff = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "diff", "aula", "--json"])) as? [[String: Any]])
            let nameRows = diff.filter { $0["zone"] as? String == "name" }
            #expect(nameRows.count == 1)
            #expect(nameRows.first?["layer"] as? Int == 3 && nameRows.first?["new"] as? String == "Symbols")
            let diffText = try await demo.ok(["keymap", "diff", "aula"])
            #expect(diffText.contains("layer 3 named 'Symbols'"), "\(diffText)")
            let moved = try await demo.ok(["keymap", "layer", "move", "aula", "3", "1"])
            #expect(moved.contains("layer 3 moved to 1"), "\(moved)")
            let layer0 = try await CLITrustTests.layer(demo, 0)
            #expect(layer0["CAPS"] == "MO(1)")
            #expect(layer0["TAB"] == "LT(2, KC_TAB)")
            #expect(try await CLITrustTests.layer(demo, 1)["A"] == "KC_B")
            let shown = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "show", "aula", "--layer", "1", "--json"]))
                    as? [String: Any])
            #expect(shown["layerName"] as? String == "Symbols")
            #expect((shown["layerNames"] as? [String])?[1] == "Symbols")
            let text = try await demo.ok(["keymap", "show", "aula", "--layer", "1", "--ascii"])
            #expect(text.contains("layer 1 (Symbols)"), "\(text)")
            let zmk = try await demo.ok(["keymap", "export", "aula", "--format", "zmk"])
            #expect(zmk.contains("display-name = \"Symbols\";"), "\(zmk)")

            _ = try await demo.ok(["keymap", "layer", "copy", "aula", "1", "4"])
            #expect(try await CLITrustTests.layer(demo, 4)["A"] == "KC_B")
            _ = try await demo.ok(["keymap", "undo", "aula"])
            #expect(try await CLITrustTests.layer(demo, 4)["A"] != "KC_B")
            _ = try await demo.ok(["keymap", "undo", "aula"])
            #expect(try await CLITrustTests.layer(demo, 0) == before)
            _ = try await demo.ok(["keymap", "undo", "aula"])
            let unnamed = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "show", "aula", "--layer", "3", "--json"]))
                    as? [String: Any])
            #expect(unnamed["layerName"] as? String == original)
            #expect(original != "Symbols")
        }
    }

    @Test("hostile or impossible layer edits are refused before they reach the draft")
    func refusals() async throws {
        try await DemoDaemon.run { demo in
            let control = try await demo.kblink(["keymap", "layer", "rename", "aula", "1", "a\u{1B}[2Jb"])
            #expect(control.status == 2, "\(control.standardError)")
            let long = try await demo.kblink([
                "keymap", "layer", "rename", "aula", "1", String(repeating: "x", count: 65),
            ])
            #expect(long.status == 2, "\(long.standardError)")
            let missing = try await demo.kblink(["keymap", "layer", "move", "aula", "1"])
            #expect(missing.status == 2, "\(missing.standardError)")
            let beyond = try await demo.kblink(["keymap", "layer", "move", "aula", "1", "9"])
            #expect(beyond.status != 0 && beyond.standardError.contains("layer 9"), "\(beyond.standardError)")
            let same = try await demo.kblink(["keymap", "layer", "copy", "aula", "2", "2"])
            #expect(same.status != 0, "\(same.standardError)")
            let state = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "show", "aula", "--json"])) as? [String: Any])
            #expect(state["dirty"] as? Bool == false)
        }
    }

    @Test("a push to ZMK Studio removes and names layers, and counts both in its text and JSON")
    func pushCountsLayerChanges() async throws {
        try await DemoDaemon.run(["--studio-layers", "4"]) { demo in
            _ = try await demo.ok(["keymap", "layer", "remove", "aula", "3"])
            _ = try await demo.ok(["keymap", "layer", "rename", "aula", "1", "Nav"])
            let dryRun = try await demo.ok(["keymap", "push", "aula", "--dry-run"])
            #expect(
                dryRun.contains("a push would remove 1 layer(s), name 1 layer(s) and write 0 binding(s)"), "\(dryRun)")
            let push = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "push", "aula", "--json"])) as? [String: Any])
            #expect(push["layersRemoved"] as? Int == 1)
            #expect(push["layersRenamed"] as? Int == 1)
            #expect(push["layersAdded"] as? Int == 0)
            let pull = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "pull", "aula", "--json"])) as? [String: Any])
            #expect(pull["deviceLayers"] as? Int == 3)
            let again = try await demo.ok(["keymap", "push", "aula"])
            #expect(again.contains("nothing to write"), "\(again)")
        }
    }
}
