import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Issue 20's acceptance, end to end: `kblink`'s commands (in-process, and the real binary) against `kblinkd-demo`
/// on a private bus.
@Suite("A CLI people trust")
struct CLITrustTests {
    /// The bindings of one layer as `keymap show --json` prints them: key name to action.
    static func layer(_ demo: DemoDaemon, _ layer: Int) async throws -> [String: String] {
        let text = try await demo.ok(["keymap", "show", "aula", "--layer", String(layer), "--json"])
        let object = try #require(try DemoDaemon.json(text) as? [String: Any])
        let keys = try #require(object["keys"] as? [[String: Any]])
        var result: [String: String] = [:]
        for key in keys {
            result[try #require(key["key"] as? String)] = try #require(key["action"] as? String)
        }
        return result
    }

    /// Writes `text` to a new temporary file and returns its path.
    static func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "kblink-profile-" + UUID().uuidString + ".json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("importing a one-key profile changes one key, and keymap diff then shows exactly that key")
    func oneKeyImport() async throws {
        try await DemoDaemon.run { demo in
            let before = try await Self.layer(demo, 0)
            let upper = try await Self.layer(demo, 1)
            let profile = try Self.file(#"{"schemaVersion": 1, "layout": "aula-f87", "layers": [{"CAPS": "KC_LCTL"}]}"#)
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let answer = try #require(
                try DemoDaemon.json(try await demo.ok(["profile", "import", "aula", profile, "--json"]))
                    as? [String: Any])
            #expect(answer["replaced"] as? Bool == false)
            #expect(answer["cleared"] as? Int == 0)
            let changes = try #require(answer["changes"] as? [[String: Any]])
            #expect(changes.count == 1)
            #expect(changes.first?["key"] as? String == "CAPS")
            // The keyboard holds its owner's keymap, read into the base: CAPS was what the owner put there.
            #expect(changes.first?["old"] as? String == before["CAPS"])
            #expect(changes.first?["new"] as? String == "KC_LCTL")

            let diff = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "diff", "aula", "--json"])) as? [[String: Any]])
            #expect(diff.count == 1, "\(diff)")
            #expect(diff.first?["key"] as? String == "CAPS")
            #expect(diff.first?["layer"] as? Int == 0)
            #expect(diff.first?["new"] as? String == "KC_LCTL")
            #expect(diff.first?["origin"] as? String == "draft")

            // Every other key is as it was, on layer 0 and above.
            var expected = before
            expected["CAPS"] = "KC_LCTL"
            #expect(try await Self.layer(demo, 0) == expected)
            #expect(try await Self.layer(demo, 1) == upper)

            // The text answer lists the change too, and says how to take it back.
            #expect(try await demo.ok(["keymap", "undo", "aula"]).contains("undone"))
            let text = try await demo.ok(["profile", "import", "aula", profile])
            #expect(text.contains("merged into the draft: 1 key binding(s) and 0 macro(s) changed"), "\(text)")
            #expect(text.contains("CAPS") && text.contains("KC_LCTL"), "\(text)")
        }
    }

    @Test("a merging import keeps macros and other layers; --replace clears what the profile leaves out, counted")
    func mergeKeepsReplaceClears() async throws {
        try await DemoDaemon.run { demo in
            _ = try await demo.ok(["macro", "set", "aula", "sig", "text 'Best regards'"])
            _ = try await demo.ok(["keymap", "set", "aula", "A", "MACRO(sig)", "--layer", "1"])
            let profile = try Self.file(
                #"{"schemaVersion": 1, "layout": "aula-f87", "layers": [{"ESC": "KC_GRV"}], "macros": {"cp": "ctrl+c"}}"#
            )
            defer { try? FileManager.default.removeItem(atPath: profile) }
            _ = try await demo.ok(["profile", "import", "aula", profile])
            // What a replace will clear: every key of layer 0 but ESC that does something, every key above that does
            // not fall through (the owner's layer 1 and the macro on A).
            var bound = try await Self.layer(demo, 0).filter { $0.key != "ESC" && $0.value != "KC_NO" }.count
            for layer in 1..<4 { bound += try await Self.layer(demo, layer).values.filter { $0 != "KC_TRNS" }.count }
            let ownersA = try await Self.layer(demo, 0)["A"]
            let exported = try #require(
                try DemoDaemon.json(try await demo.ok(["profile", "export", "aula"])) as? [String: Any])
            let macros = try #require(exported["macros"] as? [String: String])
            #expect(Set(macros.keys) == ["sig", "cp"])
            #expect(try await Self.layer(demo, 1)["A"] == "MACRO(sig)")
            #expect(try await Self.layer(demo, 0)["ESC"] == "KC_GRV")

            // A replace clears everything the profile leaves out (A's macro binding on layer 1 too) and drops the
            // macros it does not define.
            let replaced = try #require(
                try DemoDaemon.json(try await demo.ok(["profile", "import", "aula", profile, "--replace", "--json"]))
                    as? [String: Any])
            #expect(replaced["replaced"] as? Bool == true)
            #expect(replaced["cleared"] as? Int == bound)
            let dropped = try #require(replaced["macros"] as? [[String: Any]])
            #expect(dropped.map { $0["name"] as? String } == ["sig"])
            #expect(try await Self.layer(demo, 1)["A"] == "KC_TRNS")
            let layer0 = try await Self.layer(demo, 0)
            #expect(layer0["ESC"] == "KC_GRV")
            #expect(layer0["A"] == "KC_NO")
            let text = try await demo.ok(["keymap", "undo", "aula"])
            #expect(text.contains("undone"))
            #expect(try await Self.layer(demo, 0)["A"] == ownersA)
        }
    }

    @Test("a binary file is refused as not a profile, before kblinkd is asked, and nothing changes")
    func binaryProfile() async throws {
        try await DemoDaemon.run { demo in
            let path = NSTemporaryDirectory() + "kblink-binary-" + UUID().uuidString
            try Data([0x7B, 0x00, 0x01, 0x02, 0x7D]).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try await demo.kblink(["profile", "import", "aula", path])
            #expect(result.status == 1)
            #expect(result.standardError.contains("holds binary data"), "\(result.standardError)")
            #expect(!result.standardError.contains("NUL\""))
            let state = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "show", "aula", "--json"])) as? [String: Any])
            #expect(state["dirty"] as? Bool == false)
        }
    }

    @Test("every label the picture shows names a key that keymap set accepts, each a different key")
    func everyLabelIsAKeyName() async throws {
        try await DemoDaemon.run { demo in
            let picture = try await demo.ok(["keymap", "show", "aula"])
            // Labels sit between the box-drawing verticals; the top edges carry only zone tags.
            var labels: [String] = []
            for line in picture.split(separator: "\n") where line.contains("│") {
                for cell in line.split(separator: "│") {
                    let label = cell.trimmingCharacters(in: .whitespaces)
                    if !label.isEmpty, !label.contains(where: { "─┌┐└┘├┤┬┴┼".contains($0) }) {
                        labels.append(label)
                    }
                }
            }
            let layout = try PhysicalLayout.builtIn("aula-f87")
            #expect(labels.count == layout.keys.count, "\(labels)")
            #expect(labels.contains("ENT") && labels.contains("GRV") && labels.contains("EQL"))
            var named = Set<String>()
            for label in labels {
                let result = try await demo.kblink(["keymap", "set", "aula", label, "KC_A"])
                #expect(result.status == 0, "\(label): \(result.standardError)")
                // "Aula F87: ENTER on layer 0 now does KC_A (staged in the draft)"
                let key = result.standardOutput.split(separator: " ").dropFirst(2).first.map(String.init)
                if let key { named.insert(key) }
            }
            #expect(named.count == layout.keys.count, "\(named.sorted())")
            // The key names themselves (show --names) are accepted too.
            _ = try await demo.ok(["keymap", "discard", "aula"])
            let names = try await demo.ok(["keymap", "show", "aula", "--names", "--ascii"])
            #expect(names.contains("ENTER") && names.contains("GRAVE") && names.contains("FN"))
        }
    }

    @Test("suggestions name real keys: never KC_NO or KC_TRNS, and a near key name for a typo")
    func suggestions() async throws {
        try await DemoDaemon.run { demo in
            let code = try await demo.kblink(["keymap", "set", "aula", "CAPS", "KC_FOO"])
            #expect(code.status == 2, "\(code.standardError)")
            #expect(!code.standardError.contains("KC_NO") && !code.standardError.contains("KC_TRNS"))
            let key = try await demo.kblink(["keymap", "set", "aula", "ENTRE", "KC_A"])
            #expect(key.status != 0)
            #expect(key.standardError.contains("did you mean 'ENTER'?"), "\(key.standardError)")
        }
    }

    @Test("the kblink binary prints, on both streams, and exits with what the command line run in-process does")
    func binaryMatchesInProcess() async throws {
        try await DemoDaemon.run { demo in
            // Each command runs twice, a moment apart: wait until the demo's work after start-up is done (the
            // connected Aula F87's firmware information read), or the second run can print more than the first.
            #expect(
                try await eventually {
                    try await demo.kblink(["list", "--json"]).standardOutput.contains("\"firmwareRevision\"")
                })
            let commands: [[String]] = [
                ["status"], ["status", "--json"], ["list"], ["list", "--json"],
                ["keymap", "show", "aula", "--layer", "0"], ["connect", "nosuchkeyboard"], ["lsit", "--json"],
                ["--version"], ["help", "keymap", "set"],
            ]
            for arguments in commands {
                let binary = try await demo.kblinkBinary(arguments)
                let inProcess = try await demo.kblink(arguments)
                #expect(binary.status == inProcess.status, "kblink \(arguments.joined(separator: " "))")
                #expect(binary.standardOutput == inProcess.standardOutput, "kblink \(arguments.joined(separator: " "))")
                #expect(binary.standardError == inProcess.standardError, "kblink \(arguments.joined(separator: " "))")
            }
            // status against the demo is what CI's rig reads: its keys are the documented ones.
            let status = try #require(
                try DemoDaemon.json(try await demo.ok(["status", "--json"])) as? [String: Any])
            #expect(
                Set(status.keys) == [
                    "version", "bluezRunning", "bluetoothAvailable", "discovering", "hardwareKeyboardAttached",
                    "hardwareKeyboards", "keyboardHealth", "needingAttention",
                ])
        }
    }

    @Test("global options anywhere: --json list equals list --json; -V; did you mean; per-subcommand help")
    func globalOptions() async throws {
        try await DemoDaemon.run { demo in
            // The two lists are read one after the other while the demo may still be reading a keyboard's
            // firmware (the first showed `firmware: {}`, the second the strings): compared until two reads agree.
            let lists = try #require(
                await eventually(
                    "--json list and list --json to print the same",
                    {
                        (
                            try await demo.kblink(["--json", "list"]), try await demo.kblink(["list", "--json"])
                        )
                    }, satisfies: { $0.0.status == 0 && $0.0.standardOutput == $0.1.standardOutput }))
            #expect(lists.0.standardOutput.hasPrefix("[{\"address\""))
            let busFirst = try await KeymapCommandRunner.run(["--bus", demo.address, "--no-color", "--json", "status"])
            #expect(busFirst.status == 0, "\(busFirst.standardError)")
            #expect(busFirst.standardOutput.contains("\"version\""))

            let version = try await demo.kblink(["-V"], bus: false)
            #expect(version.status == 0)
            #expect(version.standardOutput == "kblink \(KBlink.version)\n")

            let typo = try await demo.kblink(["lsit"])
            #expect(typo.status == 2)
            #expect(typo.standardError.contains("did you mean 'list'?"), "\(typo.standardError)")
            let option = try await demo.kblink(["keymap", "push", "aula", "--dry-rn"])
            #expect(option.status == 2)
            #expect(option.standardError.contains("did you mean --dry-run?"), "\(option.standardError)")
            let sub = try await demo.kblink(["keymap", "shw", "aula"])
            #expect(sub.standardError.contains("did you mean 'show'?"), "\(sub.standardError)")

            let help = try await demo.kblink(["keymap", "set", "--help"], bus: false)
            #expect(help.status == 0)
            #expect(
                help.standardOutput.hasPrefix("Usage: kblink keymap set DEVICE KEY ACTION"), "\(help.standardOutput)")
            #expect(!help.standardOutput.contains("keymap push"), "\(help.standardOutput)")
            #expect(help.standardOutput.contains("stages KEY"))
        }
    }

    @Test("a ZMK Studio keyboard with 2 layers: set KEY KC_F13, push writes exactly that binding")
    func twoLayerStudioPush() async throws {
        try await DemoDaemon.run(["--studio-layers", "2"]) { demo in
            let layer0 = try await Self.layer(demo, 0)
            let layer1 = try await Self.layer(demo, 1)
            _ = try await demo.ok(["keymap", "set", "aula", "CAPS", "KC_F13"])
            let push = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "push", "aula", "--json"])) as? [String: Any])
            #expect(push["written"] as? Int == 1)
            #expect(push["verified"] as? Bool == true)
            let changes = try #require(push["changes"] as? [[String: Any]])
            #expect(changes.count == 1)
            #expect(changes.first?["key"] as? String == "CAPS")
            #expect(changes.first?["layer"] as? Int == 0)
            #expect(changes.first?["new"] as? String == "KC_F13")

            // What the keyboard holds now, read back through ZMK Studio: 2 layers, only CAPS changed.
            let pull = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "pull", "aula", "--json"])) as? [String: Any])
            #expect(pull["changed"] as? Int == 0)
            #expect(pull["layers"] as? Int == 2)
            #expect(pull["deviceLayers"] as? Int == 2)
            let shown = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "show", "aula", "--json"])) as? [String: Any])
            #expect(shown["layers"] as? Int == 2)
            var expected = layer0
            expected["CAPS"] = "KC_F13"
            #expect(try await Self.layer(demo, 0) == expected)
            #expect(try await Self.layer(demo, 1) == layer1)
        }
    }

    @Test("layers above what the keyboard holds: refused by name while they bind keys, pushable once removed")
    func extraLayers() async throws {
        try await DemoDaemon.run(["--studio-layers", "2"]) { demo in
            // The draft has the keyboard's 2 layers, read on connection; two more are added in the draft.
            _ = try await demo.ok(["keymap", "layer", "add", "aula", "2"])
            _ = try await demo.ok(["keymap", "layer", "add", "aula", "3"])
            _ = try await demo.ok(["keymap", "set", "aula", "A", "KC_B", "--layer", "3"])
            let refused = try await demo.kblink(["keymap", "push", "aula"])
            #expect(refused.status == 1, "\(refused.standardError)")
            #expect(refused.standardError.contains("layer 3 (A)"), "\(refused.standardError)")
            #expect(refused.standardError.contains("kblink keymap layer remove"), "\(refused.standardError)")

            let removed = try await demo.ok(["keymap", "layer", "remove", "aula", "3"])
            #expect(removed.contains("3 layer(s)"), "\(removed)")
            let push = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "push", "aula", "--json"])) as? [String: Any])
            #expect(push["written"] as? Int == 0)
        }
    }

    @Test("a ZMK Studio keyboard with 2 layers that can add more: push adds layer 2 for its binding, pull sees 3")
    func studioPushAddsLayer() async throws {
        try await DemoDaemon.run(["--studio-layers", "2", "--studio-available-layers", "4"]) { demo in
            // The draft has the keyboard's 2 layers, read on connection: the user adds one.
            _ = try await demo.ok(["keymap", "layer", "add", "aula", "2"])
            _ = try await demo.ok(["keymap", "set", "aula", "A", "KC_B", "--layer", "2"])
            let dryRun = try await demo.ok(["keymap", "push", "aula", "--dry-run"])
            #expect(dryRun.contains("a push would add 1 layer(s) and write 1 binding(s)"), "\(dryRun)")
            let push = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "push", "aula", "--json"])) as? [String: Any])
            #expect(push["layersAdded"] as? Int == 1)
            #expect(push["written"] as? Int == 1)
            let changes = try #require(push["changes"] as? [[String: Any]])
            #expect(changes.count == 1)
            #expect(changes.first?["layer"] as? Int == 2)
            #expect(changes.first?["new"] as? String == "KC_B")
            let pull = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "pull", "aula", "--json"])) as? [String: Any])
            #expect(pull["deviceLayers"] as? Int == 3)
            #expect(pull["changed"] as? Int == 0)
            #expect(try await Self.layer(demo, 2)["A"] == "KC_B")
        }
    }

    @Test("keymap layer add and remove move layer switches with the layers, and undo takes them back")
    func layerEdits() async throws {
        try await DemoDaemon.run { demo in
            _ = try await demo.ok(["keymap", "set", "aula", "CAPS", "MO(2)"])
            _ = try await demo.ok(["keymap", "set", "aula", "A", "KC_B", "--layer", "2"])
            let added = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "layer", "add", "aula", "1", "--json"]))
                    as? [String: Any])
            // The demo's Aula holds its owner's 5 layers (read into the base): one more makes 6.
            #expect(added["layers"] as? Int == 6)
            #expect(try await Self.layer(demo, 0)["CAPS"] == "MO(3)")
            #expect(try await Self.layer(demo, 3)["A"] == "KC_B")
            #expect(try await Self.layer(demo, 1).values.allSatisfy { $0 == "KC_TRNS" })

            let inUse = try await demo.kblink(["keymap", "layer", "remove", "aula", "3"])
            // A layer still switched to is a failure (1), like a macro still bound, not a usage error.
            #expect(inUse.status == 1, "\(inUse.standardError)")
            #expect(inUse.standardError.contains("CAPS on layer 0"), "\(inUse.standardError)")

            _ = try await demo.ok(["keymap", "layer", "remove", "aula", "1"])
            #expect(try await Self.layer(demo, 0)["CAPS"] == "MO(2)")
            #expect(try await Self.layer(demo, 2)["A"] == "KC_B")
            _ = try await demo.ok(["keymap", "undo", "aula"])
            _ = try await demo.ok(["keymap", "undo", "aula"])
            let shown = try #require(
                try DemoDaemon.json(try await demo.ok(["keymap", "show", "aula", "--json"])) as? [String: Any])
            #expect(shown["layers"] as? Int == 5)
            #expect(try await Self.layer(demo, 2)["A"] == "KC_B")
        }
    }
}
