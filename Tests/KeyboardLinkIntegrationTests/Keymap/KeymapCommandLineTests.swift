import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The real `kblink` binary's `keymap`, `macro` and `profile` commands against a daemon on a private bus.
@Suite("kblink keymap, macro and profile commands")
struct KeymapCommandLineTests {
    @Test("keymap show draws the keyboard with box-drawing keys, zone tags and a legend; --ascii in plain ASCII")
    func show() async throws {
        try await withDaemon { harness in
            let plain = try await KeymapCommandRunner.run(harness, ["keymap", "show", "aula"])
            #expect(plain.status == 0, "\(plain.standardError)")
            let lines = plain.lines
            #expect(lines.first == "Aula F87 — layout aula-f87, layer 0 of 0-3; no changes in the draft")
            // No firmware answers here: the base is still kblink's default keymap, and show says so.
            #expect(
                lines.dropFirst().first?.hasPrefix("the draft's base: kblink's default keymap for aula-f87") == true)
            #expect(lines.dropFirst(2).first?.hasPrefix("┌f────┐     ┌f────┬f────┬") == true)
            #expect(lines.dropFirst(3).first?.hasPrefix("│ ESC │     │ F1  │ F2  │") == true)
            #expect(lines.contains { $0.hasPrefix("│ LCTL  │ LGUI │ LALT  │                SPC") })
            #expect(lines.contains("Zones: f function, n navigation, untagged standard (tag in the key's top edge)"))
            #expect(!plain.standardOutput.contains("\u{1B}["), "no colours when not a terminal")

            let ascii = try await KeymapCommandRunner.run(
                harness, ["keymap", "show", "aula", "--ascii", "--layer", "1"])
            #expect(ascii.status == 0)
            #expect(ascii.standardOutput.utf8.allSatisfy { $0 < 0x80 }, "only ASCII")
            #expect(ascii.lines.dropFirst(2).first?.hasPrefix("+f----+     +f----+f----+") == true)
            #expect(ascii.lines.dropFirst(3).first?.hasPrefix("|trns |     |trns |trns |") == true)

            #expect(
                try await KeymapCommandRunner.run(harness, ["keymap", "set", "aula", "CAPS", "KC_LCTL"]).status == 0)
            let changed = try await KeymapCommandRunner.run(harness, ["keymap", "show", "aula"])
            #expect(changed.lines.first?.hasSuffix("the draft has changes ('kblink keymap diff')") == true)
            #expect(changed.lines.contains { $0.hasPrefix("│  *LCTL   │  A  │  S  │") })
            #expect(changed.lines.last?.hasPrefix("* changed in the draft (1 key)") == true)
        }
    }

    @Test("keymap show --zone --json lists one zone's keys with places and changes")
    func showJSON() async throws {
        try await withDaemon { harness in
            #expect(
                try await KeymapCommandRunner.run(
                    harness, ["keymap", "set", "vgn", "KP_5", "KC_UP", "--zone", "numpad"]
                ).status == 0)
            let result = try await KeymapCommandRunner.run(
                harness, ["keymap", "show", "vgn", "--zone", "numpad", "--json"])
            #expect(result.status == 0, "\(result.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect(object["layout"] as? String == "vgn-98pro")
            #expect(object["zones"] as? [String] == ["standard", "number", "function", "navigation"])
            #expect(object["dirty"] as? Bool == true)
            let keys = try #require(object["keys"] as? [[String: Any]])
            #expect(keys.count == 17)
            #expect(keys.allSatisfy { $0["zone"] as? String == "number" })
            let five = try #require(keys.first { $0["key"] as? String == "KP_5" })
            #expect(five["action"] as? String == "KC_UP")
            #expect(five["changed"] as? Bool == true)
            #expect(five["x"] as? Double == 16.5 && five["w"] as? Double == 1)
            #expect(keys.filter { $0["changed"] as? Bool == true }.count == 1)
        }
    }

    @Test("keymap set, undo, redo, diff and discard, with their exit codes")
    func editing() async throws {
        try await withDaemon { harness in
            let set = try await KeymapCommandRunner.run(harness, ["keymap", "set", "aula", "caps", "LCTRL"])
            #expect(set.status == 0)
            #expect(set.standardOutput == "Aula F87: CAPS on layer 0 now does KC_LCTL (staged in the draft)\n")
            let setJSON = try await KeymapCommandRunner.run(
                harness, ["keymap", "set", "aula", "F1", "KEY_MUTE", "--layer", "1", "--json"])
            #expect(
                setJSON.standardOutput
                    == "{\"ok\":true,\"address\":\"F8:70:00:00:00:87\",\"key\":\"F1\",\"layer\":1,\"action\":\"KC_MUTE\"}\n"
            )
            let diff = try await KeymapCommandRunner.run(harness, ["keymap", "diff", "aula"])
            // This daemon's Aula offers the ZMK Studio service with no firmware behind it: diff says it could not
            // read the keyboard, and lists the draft.
            #expect(diff.lines.first?.hasPrefix("Aula F87: what the keyboard holds was not read") == true)
            #expect(
                diff.lines.dropFirst() == [
                    "ZONE      LAYER  KEY   OLD      NEW      ORIGIN", "standard  0      CAPS  KC_CAPS  KC_LCTL  draft",
                    "function  1      F1    KC_TRNS  KC_MUTE  draft",
                ])
            let undo = try await KeymapCommandRunner.run(harness, ["keymap", "undo", "aula", "--json"])
            #expect(
                undo.standardOutput
                    == "{\"ok\":true,\"canUndo\":true,\"canRedo\":true,\"dirty\":true,\"changes\":[{\"zone\":"
                    + "\"function\",\"layer\":1,\"key\":\"F1\",\"old\":\"KC_MUTE\",\"new\":\"KC_TRNS\"}]}\n")
            let redo = try await KeymapCommandRunner.run(harness, ["keymap", "redo", "aula"])
            #expect(redo.status == 0)
            #expect(redo.lines.last == "  F1 on layer 1: KC_TRNS -> KC_MUTE", "\(redo.standardOutput)")
            let diffJSON = try await KeymapCommandRunner.run(harness, ["keymap", "diff", "aula", "--json"])
            #expect(
                diffJSON.standardOutput.contains(
                    "{\"zone\":\"function\",\"layer\":1,\"key\":\"F1\",\"old\":\"KC_TRNS\",\"new\":\"KC_MUTE\","
                        + "\"keyboard\":null,\"origin\":\"draft\"}"
                ))
            let discard = try await KeymapCommandRunner.run(harness, ["keymap", "discard", "aula"])
            #expect(discard.standardOutput.contains("draft discarded; can undo: yes, can redo: no, draft: clean"))
            #expect(discard.standardOutput.contains("  CAPS on layer 0: KC_LCTL -> KC_CAPS"))
            // Discarding is undoable: undo brings the draft back, redo discards again.
            let back = try await KeymapCommandRunner.run(harness, ["keymap", "undo", "aula"])
            #expect(back.standardOutput.contains("  F1 on layer 1: KC_TRNS -> KC_MUTE"), "\(back.standardOutput)")
            #expect(try await KeymapCommandRunner.run(harness, ["keymap", "redo", "aula"]).status == 0)
            for _ in 0..<3 { _ = try await KeymapCommandRunner.run(harness, ["keymap", "undo", "aula"]) }
            let nothing = try await KeymapCommandRunner.run(harness, ["keymap", "undo", "aula"])
            #expect(nothing.status == 1)
            #expect(nothing.standardError == "kblink: nothing to undo\n")
            #expect(
                try await KeymapCommandRunner.run(harness, ["keymap", "diff", "aula"]).standardOutput.contains(
                    "no changes"))
        }
    }

    @Test(
        "bad keymap command lines: usage 2, not found 4",
        arguments: [
            (["keymap", "set", "aula", "CAPZ", "KC_A"], 2, "did you mean 'CAPS'"),
            (["keymap", "set", "aula", "CAPS", "KC_LCTRLL"], 2, "did you mean 'KC_LCTRL'"),
            (["keymap", "set", "aula", "CAPS", "KC_A", "--zone", "nav"], 2, "not in the navigation zone"),
            (["keymap", "set", "aula", "CAPS", "KC_A", "--layer", "5"], 2, "layer 5 does not exist"),
            (["keymap", "set", "aula", "CAPS", "KC_A", "--layer", "x"], 2, "--layer expects a layer number"),
            (["keymap", "show", "aula", "--zone", "keys"], 2, "unknown zone 'keys'"),
            (["keymap", "show", "aula", "--zone", "number"], 2, "has no number zone"),
            (["keymap", "set", "aula", "CAPS"], 2, "missing ACTION"),
            (["keymap", "frob", "aula"], 2, "unknown subcommand 'frob'"),
            (["keymap"], 2, "missing the subcommand"),
            (["keymap", "undo", "aula", "--ascii"], 2, "--ascii is for 'keymap show'"),
            (["keymap", "show", "nonesuch"], 4, "no keyboard is called"),
            (["macro", "set", "aula", "m", "ctrl+"], 2, "cannot read the macro"),
            (["macro", "remove", "aula", "m"], 4, "no macro named 'm'"),
            (["macro", "record", "aula", "m"], 2, "needs --events FILE"),
            (["profile", "import", "aula"], 2, "missing FILE"),
            (["profile", "import", "aula", "/nonexistent/p.json"], 1, "cannot open a profile /nonexistent/p.json"),
        ])
    func badCommandLines(arguments: [String], status: Int32, message: String) async throws {
        try await withDaemon { harness in
            let result = try await KeymapCommandRunner.run(harness, arguments)
            #expect(result.status == status, "\(result.standardError)")
            #expect(result.standardError.contains(message), "\(result.standardError)")
        }
    }

    @Test("macro set, list, remove, and record from an input_event file")
    func macros() async throws {
        try await withDaemon { harness in
            let set = try await KeymapCommandRunner.run(
                harness, ["macro", "set", "aula", "sig", "text 'Regards', ENTER"])
            #expect(set.standardOutput == "Aula F87: macro sig = text 'Regards', enter (staged in the draft)\n")
            #expect(
                try await KeymapCommandRunner.run(harness, ["keymap", "set", "aula", "F5", "MACRO(sig)"]).status == 0)
            let list = try await KeymapCommandRunner.run(harness, ["macro", "list", "aula"])
            #expect(list.lines == ["NAME  DEFINITION", "sig   text 'Regards', enter"])
            let inUse = try await KeymapCommandRunner.run(harness, ["macro", "remove", "aula", "sig"])
            // A macro still bound is a failure (1), not a usage error.
            #expect(inUse.status == 1 && inUse.standardError.contains("still bound to F5 on layer 0"))

            // Ctrl+C typed on a keyboard: ctrl down, c down, c up, ctrl up, with EV_SYN reports between.
            let file = NSTemporaryDirectory() + "kblink-events-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: file) }
            try Data(Self.events([(0, 1, 29, 1), (0, 0, 0, 0), (10, 1, 46, 1), (20, 1, 46, 0), (30, 1, 29, 0)]))
                .write(to: URL(fileURLWithPath: file))
            let recorded = try await KeymapCommandRunner.run(
                harness, ["macro", "record", "aula", "copy", "--events", file, "--json"])
            #expect(recorded.status == 0, "\(recorded.standardError)")
            #expect(recorded.standardOutput == "{\"ok\":true,\"name\":\"copy\",\"definition\":\"ctrl+c\"}\n")
            let json = try await KeymapCommandRunner.run(harness, ["macro", "list", "aula", "--json"])
            #expect(json.standardOutput == "{\"copy\":\"ctrl+c\",\"sig\":\"text 'Regards', enter\"}\n")
            #expect(try await KeymapCommandRunner.run(harness, ["macro", "remove", "aula", "copy"]).status == 0)

            try Data(repeating: 0, count: 23).write(to: URL(fileURLWithPath: file))
            let broken = try await KeymapCommandRunner.run(harness, ["macro", "record", "aula", "x", "--events", file])
            #expect(broken.status == 1)
            #expect(broken.standardError.contains("23 bytes is not a whole number of 24-byte input_event records"))
        }
    }

    @Test("profile export to a file and to standard output, import, and the errors of both")
    func profiles() async throws {
        try await withDaemon { harness in
            let directory = try KeymapFixture.stateDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            #expect(try await KeymapCommandRunner.run(harness, ["keymap", "set", "aula", "ESC", "KC_GRV"]).status == 0)
            let file = directory + "/aula.json"
            let export = try await KeymapCommandRunner.run(harness, ["profile", "export", "aula", file])
            #expect(export.status == 0 && export.standardOutput == "Aula F87: profile written to \(file)\n")
            let written = try String(contentsOfFile: file, encoding: .utf8)
            let printed = try await KeymapCommandRunner.run(harness, ["profile", "export", "aula"])
            #expect(printed.status == 0 && printed.standardOutput == written)
            let document = try ProfileDocument(json: written)
            #expect(document.keymap.action(layer: 0, key: try KeyName("ESC")) == .key(HIDUsage.keyboard(0x35)))

            #expect(try await KeymapCommandRunner.run(harness, ["keymap", "discard", "aula"]).status == 0)
            let imported = try await KeymapCommandRunner.run(harness, ["profile", "import", "aula", file, "--json"])
            #expect(
                imported.standardOutput
                    == "{\"ok\":true,\"file\":\"\(file)\",\"replaced\":false,\"cleared\":0,\"changes\":[{\"layer\":0,"
                    + "\"key\":\"ESC\",\"old\":\"KC_ESC\",\"new\":\"KC_GRV\"}],\"macros\":[]}\n")
            let again = directory + "/again.json"
            #expect(try await KeymapCommandRunner.run(harness, ["profile", "export", "aula", again]).status == 0)
            #expect(try String(contentsOfFile: again, encoding: .utf8) == written)
            let wrongLayout = try await KeymapCommandRunner.run(harness, ["profile", "import", "vgn", file])
            #expect(wrongLayout.status == 2 && wrongLayout.standardError.contains("the profile is for layout aula-f87"))

            let huge = directory + "/huge.json"
            try Data(repeating: 0x20, count: (16 << 20) + 1).write(to: URL(fileURLWithPath: huge))
            let tooLarge = try await KeymapCommandRunner.run(harness, ["profile", "import", "aula", huge])
            #expect(tooLarge.status == 1 && tooLarge.standardError.contains("larger than 16 MiB"))
            let binary = directory + "/binary.json"
            try Data([0xFF, 0xFE, 0x00, 0x7B]).write(to: URL(fileURLWithPath: binary))
            let notText = try await KeymapCommandRunner.run(harness, ["profile", "import", "aula", binary])
            #expect(notText.status == 1 && notText.standardError.contains("is not UTF-8 text"))
            let notJSON = directory + "/not.json"
            try "{ \"schemaVersion\": 1, ".write(toFile: notJSON, atomically: true, encoding: .utf8)
            let malformed = try await KeymapCommandRunner.run(harness, ["profile", "import", "aula", notJSON])
            #expect(malformed.status == 2 && malformed.standardError.contains("invalid profile"))
            let unwritable = try await KeymapCommandRunner.run(
                harness, ["profile", "export", "aula", directory + "/no/such/dir.json"])
            #expect(unwritable.status == 1 && unwritable.standardError.contains("cannot write"))
        }
    }

    @Test("profile export - prints the profile and creates no file named '-'")
    func profileExportToStandardOutput() async throws {
        try await withDaemon { harness in
            let directory = try KeymapFixture.stateDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let printed = try await KeymapCommandRunner.run(harness, ["profile", "export", "aula"])
            #expect(printed.status == 0 && printed.standardOutput.hasPrefix("{"))
            // Run in a scratch directory, so that a wrong '-' file lands there and not in the package.
            let dash = try await runProcess(
                "/bin/sh",
                [
                    "-c", #"cd "$0" && exec "$1" profile export aula - --bus "$2""#, directory,
                    DaemonHarness.binary("kblink"), harness.bus.address,
                ])
            #expect(dash.status == 0, "\(dash.standardError)")
            #expect(dash.standardOutput == printed.standardOutput)
            #expect(!FileManager.default.fileExists(atPath: directory + "/-"))
            let help = try await runProcess(DaemonHarness.binary("kblink"), ["profile", "--help"])
            #expect(help.standardOutput.contains("'-' for standard output"))
        }
    }

    @Test("profile export over a file keeps its mode and does not follow a link planted at its temporary name")
    func profileExportReplacesSafely() async throws {
        try await withDaemon { harness in
            let directory = try KeymapFixture.stateDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let printed = try await KeymapCommandRunner.run(harness, ["profile", "export", "aula"])
            #expect(printed.status == 0)

            let existing = directory + "/private.json"
            try "old".write(toFile: existing, atomically: false, encoding: .utf8)
            #expect(chmod(existing, 0o600) == 0)
            let export = try await KeymapCommandRunner.run(harness, ["profile", "export", "aula", existing])
            #expect(export.status == 0, "\(export.standardError)")
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == printed.standardOutput)
            var status = stat()
            #expect(stat(existing, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600, "mode \(String(status.st_mode & 0o777, radix: 8))")

            // The shell plants a link at the name the old code used (FILE.kblink-PID), then becomes kblink with
            // that same PID.
            let victim = directory + "/victim"
            try "secret".write(toFile: victim, atomically: false, encoding: .utf8)
            let target = directory + "/target.json"
            let planted = try await runProcess(
                "/bin/sh",
                [
                    "-c", #"ln -s "$1" "$0.kblink-$$" && exec "$2" profile export aula "$0" --bus "$3""#, target,
                    victim,
                    DaemonHarness.binary("kblink"), harness.bus.address,
                ])
            #expect(planted.status == 0, "\(planted.standardError)")
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "secret")
            var link = stat()
            #expect(lstat(target, &link) == 0)
            #expect(link.st_mode & S_IFMT == S_IFREG, "FILE is a regular file, not the planted link")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == printed.standardOutput)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { name in
                var entry = stat()
                return name.hasPrefix("target.json.") && lstat(directory + "/" + name, &entry) == 0
                    && entry.st_mode & S_IFMT != S_IFLNK
            }
            #expect(leftovers.isEmpty, "no temporary file is left: \(leftovers)")
        }
    }

    @Test("--help explains every subcommand", arguments: ["keymap", "macro", "profile"])
    func help(command: String) async throws {
        let result = try await runProcess(DaemonHarness.binary("kblink"), [command, "--help"])
        #expect(result.status == 0)
        let expected = [
            "keymap": [
                "kblink keymap show DEVICE", "kblink keymap set DEVICE KEY ACTION", "undo|redo|discard", "diff",
            ],
            "macro": ["kblink macro set DEVICE NAME DEFINITION", "macro list", "macro remove", "--events FILE"],
            "profile": ["kblink profile export DEVICE [FILE]", "kblink profile import DEVICE FILE"],
        ]
        for fragment in expected[command] ?? [] {
            #expect(result.standardOutput.contains(fragment), "\(fragment)")
        }
        let overview = try await runProcess(DaemonHarness.binary("kblink"), ["--help"])
        #expect(overview.standardOutput.contains("  \(command.padding(toLength: 12, withPad: " ", startingAt: 0))"))
    }

    /// `struct input_event` records: (milliseconds, type, code, value).
    static func events(_ list: [(Int64, UInt16, UInt16, Int32)]) -> [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        for (milliseconds, type, code, value) in list {
            append(Int64(1_700_000_000 + milliseconds / 1_000))
            append(Int64(milliseconds % 1_000 * 1_000))
            append(type)
            append(code)
            append(value)
        }
        return bytes
    }
}
