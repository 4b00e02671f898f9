import Foundation
import KeyboardLink
import KeyboardLinkKeymapFiles
import KeyboardLinkTestSupport
import Testing

/// `kblink keymap export` and `kblink keymap import` against kblinkd with the demo's keyboards on a private bus.
@Suite("kblink keymap export and import: ZMK, QMK, Vial and keymap-drawer files")
struct KeymapFileCommandTests {
    /// Edits of every kind on a demo keyboard's draft: mod-taps, layer-taps, layer switches, consumer keys, chords and
    /// macros of every step.
    static func edit(_ harness: DaemonHarness, _ device: String) async throws {
        let edits: [[String]] = [
            ["macro", "set", device, "sig", "text 'Best regards', enter, delay 50, ctrl+c"],
            ["macro", "set", device, "copy", "ctrl+c"],
            ["macro", "set", device, "shifty", "press shift, a, release shift, tap b"],
            ["keymap", "set", device, "CAPS", "LCTL_T(KC_ESC)"],
            ["keymap", "set", device, "A", "MT(MOD_LCTL | MOD_LSFT, KC_A)"],
            ["keymap", "set", device, "SPACE", "LT(2, KC_SPC)"],
            ["keymap", "set", device, "Q", "LSFT(LALT(KC_TAB))"],
            ["keymap", "set", device, "F1", "KC_MUTE", "--layer", "1"],
            ["keymap", "set", device, "F2", "TG(3)", "--layer", "1"],
            ["keymap", "set", device, "F3", "TO(0)", "--layer", "1"],
            ["keymap", "set", device, "F4", "MACRO(sig)", "--layer", "1"],
            ["keymap", "set", device, "F5", "MACRO(copy)", "--layer", "2"],
            ["keymap", "set", device, "F6", "MACRO(shifty)", "--layer", "3"],
        ]
        for edit in edits {
            let result = try await harness.kblink(edit)
            #expect(result.status == 0, "\(edit): \(result.standardError)")
        }
    }

    @Test("export then import changes nothing, for every format and both demo keyboards", arguments: ["aula", "vgn"])
    func roundTrip(device: String) async throws {
        let directory = try TemporaryDirectory()
        try await withDaemon { harness in
            try await Self.edit(harness, device)
            let before = try await harness.kblink(["keymap", "diff", device, "--json"])
            let profileFile = directory.path + "/profile.json"
            #expect(try await harness.kblink(["profile", "export", device, profileFile]).status == 0)
            let profile = try await harness.kblink(["profile", "export", device])
            let formats = KeymapFileFormat.allCases.filter(\.isReadable).map(\.rawValue)
            #expect(formats == ["zmk", "qmk", "vil"])
            for format in formats {
                let file = directory.path + "/keymap.\(format)"
                let exported = try await harness.kblink([
                    "keymap", "export", device, "--format", format, file, "--json",
                ])
                #expect(exported.status == 0, "\(format): \(exported.standardError)")
                #expect(exported.standardOutput.contains("\"format\":\"\(format)\""), "\(exported.standardOutput)")
                // The format is guessed from the content.
                let imported = try await harness.kblink(["keymap", "import", device, file, "--json"])
                #expect(imported.status == 0, "\(format): \(imported.standardError)")
                #expect(
                    imported.standardOutput.contains("\"changes\":[],\"macros\":[]"),
                    "\(format): \(imported.standardOutput)")
                if format == "zmk" {
                    // (diff reads the AULA's firmware, seconds each time: once is enough.)
                    let diff = try await harness.kblink(["keymap", "diff", device, "--json"])
                    #expect(diff.standardOutput == before.standardOutput)
                }
                #expect(
                    try await harness.kblink(["profile", "export", device]).standardOutput == profile.standardOutput)
                // Replacing a discarded draft with the file brings every binding back.
                #expect(try await harness.kblink(["keymap", "discard", device]).status == 0)
                let replaced = try await harness.kblink(["keymap", "import", device, file, "--replace"])
                #expect(replaced.status == 0, "\(format): \(replaced.standardError)")
                let after = try await harness.kblink(["profile", "export", device]).standardOutput
                if format == "zmk" {
                    // ZMK names its macros: the draft is whole again.
                    #expect(after == profile.standardOutput)
                } else {
                    // QMK and Vial number their macros: with the draft's macros discarded, they come back as macro_N.
                    #expect(after.contains("MACRO(macro_2)"), "\(format): \(after)")
                    #expect(
                        try await harness.kblink(["profile", "import", device, profileFile, "--replace"]).status == 0)
                }
            }
        }
    }

    @Test("a hand-written ZMK keymap imports into the AULA F87's draft; diff lists exactly the changed keys; undo")
    func handWritten() async throws {
        let directory = try TemporaryDirectory()
        try await withDaemon { harness in
            let file = directory.path + "/aula.keymap"
            try KeymapFixtureText.handWrittenZMK.write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try await harness.kblink(["keymap", "import", "aula", file])
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(
                imported.lines.first?.contains("merged into the draft: 12 key binding(s) and 1 macro(s)") == true,
                "\(imported.standardOutput)")
            let diff = try await harness.kblink(["keymap", "diff", "aula", "--json"])
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(diff.standardOutput.utf8)) as? [[String: Any]])
            // The file's display-names name the layers: listed apart from the keys.
            let names = rows.filter { $0["zone"] as? String == "name" }.map {
                "\($0["layer"] ?? ""): \($0["new"] ?? "")"
            }
            #expect(names == ["0: Base", "1: Nav"], "\(names)")
            let keys = rows.filter { !["macro", "name"].contains($0["zone"] as? String) }.map {
                "\($0["layer"] ?? "")/\($0["key"] ?? ""): \($0["old"] ?? "") -> \($0["new"] ?? "")"
            }
            #expect(
                Set(keys) == [
                    "0/CAPS: KC_CAPS -> LSFT_T(KC_A)", "0/C: KC_C -> LCTL(KC_C)", "0/SPACE: KC_SPC -> LT(1, KC_SPC)",
                    "1/H: KC_TRNS -> KC_LEFT", "1/J: KC_TRNS -> KC_DOWN", "1/K: KC_TRNS -> KC_UP",
                    "1/L: KC_TRNS -> KC_RGHT", "1/FN: KC_TRNS -> TG(0)", "1/APP: KC_TRNS -> MACRO(hello)",
                    "1/RCTL: KC_TRNS -> KC_NO", "1/LEFT: KC_TRNS -> TO(0)", "1/RIGHT: KC_TRNS -> LSFT(LALT(KC_TAB))",
                ], "\(keys.sorted())")
            #expect(keys.count == 12)
            let macros = rows.filter { $0["zone"] as? String == "macro" }
            #expect(macros.count == 1 && macros.first?["key"] as? String == "hello", "\(macros)")
            // One undo takes the whole import back.
            #expect(try await harness.kblink(["keymap", "undo", "aula"]).status == 0)
            #expect(try await harness.kblink(["keymap", "diff", "aula"]).standardOutput.contains("no changes"))
        }
    }

    @Test("a broken file is refused with its file, line and column; the draft stays as it was")
    func refused() async throws {
        let directory = try TemporaryDirectory()
        try await withDaemon { harness in
            let file = directory.path + "/bad.keymap"
            let text = KeymapFixtureText.handWrittenZMK.replacing("&kp LS(LA(TAB))", with: "&bt BT_SEL 0")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let line = KeymapFixtureText.line(of: "&bt BT_SEL 0", in: text)
            let result = try await harness.kblink(["keymap", "import", "aula", file])
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("kblink: \(file): line \(line), column "), "\(result.standardError)")
            #expect(result.standardError.contains("&bt (a Bluetooth profile command)"))
            #expect(try await harness.kblink(["keymap", "diff", "aula"]).standardOutput.contains("no changes"))
            // keymap-drawer YAML is written, not read; an unknown format is a usage error.
            let drawer = try await harness.kblink(["keymap", "import", "aula", file, "--format", "keymap-drawer"])
            #expect(drawer.status == 2)
            let unknown = try await harness.kblink(["keymap", "export", "aula", "--format", "kle"])
            #expect(unknown.status == 2 && unknown.standardError.contains("--format expects"))
            let misplaced = try await harness.kblink(["keymap", "show", "aula", "--replace"])
            #expect(misplaced.status == 2)
            // --keyboard reads the keyboard: the VGN 98Pro is asleep.
            let asleep = try await harness.kblink(["keymap", "export", "vgn", "--format", "zmk", "--keyboard"])
            #expect(asleep.status == 1)
            #expect(asleep.standardError.contains("--keyboard reads the keyboard"), "\(asleep.standardError)")
        }
    }

    @Test("export to standard output, keymap-drawer with its layout beside the file, files written 0600")
    func exportShapes() async throws {
        let directory = try TemporaryDirectory()
        try await withDaemon { harness in
            let zmk = try await harness.kblink(["keymap", "export", "vgn", "--format", "zmk"])
            #expect(zmk.status == 0)
            #expect(zmk.standardOutput.contains("compatible = \"zmk,keymap\";"))
            #expect(zmk.standardOutput.contains("&kp KP_N7"), "the number pad in ZMK's names")
            let file = directory.path + "/vgn.yaml"
            let drawer = try await harness.kblink(["keymap", "export", "vgn", "--format", "keymap-drawer", file])
            #expect(drawer.status == 0, "\(drawer.standardError)")
            let yaml = try String(contentsOfFile: file, encoding: .utf8)
            #expect(yaml.contains("layout: {qmk_info_json: '\(directory.path)/vgn.info.json'}"))
            let info = try String(contentsOfFile: directory.path + "/vgn.info.json", encoding: .utf8)
            #expect(info.contains("\"label\": \"KP_7\""))
            var status = stat()
            #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
        }
    }
}
