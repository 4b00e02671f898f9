import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// kblink(1) is written from the command table by `kblink _manpage` (scripts/manpage and the package use it).
@Suite("kblink(1) from the command table")
struct ManPageTests {
    @Test("the page has a section for every command the overview lists, and the date of SOURCE_DATE_EPOCH")
    func everyCommand() async throws {
        let overview = await InProcessKBlink.run(["--help"])
        let commands = overview.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0 != "Commands:" }.dropFirst().prefix { !$0.isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count >= 16, "\(overview.standardOutput)")
        let page = await InProcessKBlink.run(["_manpage"], environment: ["SOURCE_DATE_EPOCH": "1764633600"])
        #expect(page.status == 0, "\(page.standardError)")
        let lines = page.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains(#".TH KBLINK 1 "2025-12-02" "kblink \#(KBlink.version)" "User Commands""#))
        for command in commands {
            #expect(lines.contains(".SS " + command), "no section for \(command)")
        }
        // Options become tagged paragraphs, dashes that start a word minus signs.
        #expect(page.standardOutput.contains(".TP\n.B \\-\\-refresh\n"), "\(page.standardOutput)")
        #expect(lines.contains(".SH EXIT STATUS"))
        // Without SOURCE_DATE_EPOCH (or with one that is not a number) the page has no date.
        let undated = await InProcessKBlink.run(["_manpage"], environment: ["SOURCE_DATE_EPOCH": "soon"])
        #expect(undated.standardOutput.contains(#".TH KBLINK 1 "" "kblink "#))
    }
}
