import Foundation
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkClient
@testable import KeyboardLinkService
@testable import KeyboardLinkSimulator

/// Every Bluetooth device in radio range chooses its own name: the real `kblink` shows it as text, never as
/// terminal commands or extra lines, `--json` escapes it, and kblinkd's log keeps one line per event.
@Suite("Names chosen over the air")
struct HostileNameTests {
    /// ESC (SGR), OSC with BEL, C1 CSI, a newline, a bidi override and a zero-width space.
    static let evil = "Aula F87 Evil\u{1B}[8mHidden\u{1B}]0;pwned\u{07}\u{9B}2J\nFAKE LINE\u{202E}gnp.exe\u{200B}\u{7F}"

    /// None of the dangerous characters is in `text` raw.
    static func expectNoRawControls(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for character in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}", "\u{200B}", "\u{7F}"] {
            #expect(
                !text.contains(character), "raw \(character.unicodeScalars.first!.value) in \(text)",
                sourceLocation: sourceLocation)
        }
    }

    @Test("list, info and --json carry none of ESC, OSC, BEL, C1, U+202E or a newline raw; the log is a line per event")
    func hostileName() async throws {
        var device = SimulatedDevice.aulaF87
        device.name = Self.evil
        let log = DaemonHarness.Log()
        try await withDaemon(devices: [device], log: log) { harness in
            #expect(
                await eventually {
                    (try? await KeymapCommandRunner.run(harness, ["list"]).standardOutput.contains("FAKE")) == true
                })
            let list = try await KeymapCommandRunner.run(harness, ["list"])
            #expect(list.status == 0, "\(list.standardError)")
            Self.expectNoRawControls(list.standardOutput)
            // The header and one row: the name's newline did not add a line.
            #expect(list.lines.count == 2, "\(list.standardOutput)")
            #expect(list.standardOutput.contains("^J") && list.standardOutput.contains("\\u{202E}"))

            let info = try await KeymapCommandRunner.run(harness, ["info", device.address.description])
            #expect(info.status == 0, "\(info.standardError)")
            Self.expectNoRawControls(info.standardOutput)
            #expect(info.lines.first?.contains("FAKE LINE") == true, "\(info.standardOutput)")

            let json = try await KeymapCommandRunner.run(harness, ["list", "--json"])
            Self.expectNoRawControls(json.standardOutput)
            #expect(json.lines.count == 1)
            let parsed = try #require(
                try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
            #expect(parsed.first?["name"] as? String == Self.evil, "JSON carries the name itself, escaped")

            // kblinkd logged the name (the firmware read names the keyboard): each message is one journal line.
            #expect(await eventually { log.entries.contains { $0.1.contains("FAKE LINE") } })
            for (level, message) in log.entries {
                let line = Logger.format(message, level: level)
                #expect(line.filter { $0 == "\n" }.count == 1, "\(line)")
                Self.expectNoRawControls(line)
            }
        }
    }

    @Test("profile export writes a new file 0600 (it holds macro text) and keeps an existing file's mode")
    func exportMode() async throws {
        try await withDaemon { harness in
            let directory = NSTemporaryDirectory() + "kblink-export-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let fresh = directory + "/new.json"
            let export = try await KeymapCommandRunner.run(harness, ["profile", "export", "aula", fresh])
            #expect(export.status == 0, "\(export.standardError)")
            var info = stat()
            #expect(stat(fresh, &info) == 0 && info.st_mode & 0o777 == 0o600)
            let kept = directory + "/kept.json"
            #expect(FileManager.default.createFile(atPath: kept, contents: Data()))
            #expect(chmod(kept, 0o640) == 0)
            #expect(try await KeymapCommandRunner.run(harness, ["profile", "export", "aula", kept]).status == 0)
            #expect(stat(kept, &info) == 0 && info.st_mode & 0o777 == 0o640)
        }
    }
}
