import Foundation
import Glibc
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink layout add|list|show|remove` against kblinkd with the demo's keyboards on a private bus: a VIA
/// definition for the VGN 98Pro's IDs (05AC:0256 in the demo) becomes its layout, survives a restart, goes away.
@Suite("kblink layout: layouts from VIA definitions, matched by vendor and product IDs")
struct LayoutCommandTests {
    static let vgnPath = KBlink.keyboardPath(KeymapFixture.vgn)

    /// The 1up60hse's definition (the-via/keyboards) with the demo VGN 98Pro's IDs, written to a file.
    static func definitionFile(in directory: TemporaryDirectory, name: String = "vgn.json") throws -> String {
        let path = directory.path + "/" + name
        try VIADefinitionFixtureText.oneUp60HSE(vendorID: "0x05AC", productID: "0x0256")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// The `Layout` property of the VGN 98Pro's keymap.
    static func vgnLayout(_ harness: DaemonHarness) async throws -> String {
        try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { try await $0.state().layout }
    }

    @Test("add applies to the matching keyboard at once; list, show; it survives a restart; remove takes it back")
    func addListShowRemove() async throws {
        let directory = try TemporaryDirectory()
        let file = try Self.definitionFile(in: directory)
        let state = try KeymapFixture.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try await withDaemon(options: { $0.stateDirectory = state }) { harness in
            try await harness.waitForInterface(KBlink.keymapInterface, at: Self.vgnPath)
            #expect(try await Self.vgnLayout(harness) == "vgn-98pro")
            let changes = try await harness.bus.connect()
            defer { Task { await changes.close() } }
            let signals = try await changes.subscribe(
                to: MatchRule(
                    path: Self.vgnPath, interface: InterfaceName("org.freedesktop.DBus.Properties"),
                    member: MemberName("PropertiesChanged"), arg0: KBlink.keymapInterface.rawValue))

            let added = try await harness.kblink(["layout", "add", file, "--json"])
            #expect(added.status == 0, "\(added.standardError)")
            let answer = try #require(try Self.json(added.standardOutput) as? [String: Any])
            #expect(answer["id"] as? String == "1up60hse" && answer["keys"] as? Int == 61)
            #expect(answer["vendorId"] as? String == "0x05AC" && answer["productId"] as? String == "0x0256")
            #expect(answer["version"] as? String == "v3")
            let keyboards = try #require(answer["keyboards"] as? [[String: Any]])
            #expect(keyboards.count == 1, "only the VGN 98Pro has these IDs: \(keyboards)")
            #expect(keyboards.first?["address"] as? String == KeymapFixture.vgn.description)
            #expect(keyboards.first?["outcome"] as? String == "applied")

            // The change was published: Layout and Zones in one PropertiesChanged.
            let message = await first(of: signals) { message in
                message.body.count == 3 && message.body[1].stringDictionary?["Layout"] != nil
            }
            let published = message?.body[1].stringDictionary ?? [:]
            #expect(published["Layout"] == .variant(.string("1up60hse")), "\(published)")
            #expect(published["Zones"] == .variant(.array(.string, [.string("standard")])), "\(published)")

            // keymap show draws the keyboard with the layout's keys.
            let show = try await harness.kblink(["keymap", "show", "vgn", "--json"])
            #expect(show.status == 0, "\(show.standardError)")
            let shown = try #require(try Self.json(show.standardOutput) as? [String: Any])
            #expect(shown["layout"] as? String == "1up60hse")
            let keys = try #require(shown["keys"] as? [[String: Any]])
            #expect(keys.count == 61 && keys.contains { $0["key"] as? String == "SPACE" && $0["w"] as? Double == 6.25 })
            #expect(!keys.contains { ($0["key"] as? String)?.hasPrefix("KP_") == true })

            // Exports know its matrix: a .vil is by matrix position.
            let vil = try await harness.kblink(["keymap", "export", "vgn", "--format", "vil"])
            #expect(vil.status == 0, "\(vil.standardError)")

            let list = try await harness.kblink(["layout", "list", "--json"])
            let rows = try #require(try Self.json(list.standardOutput) as? [[String: Any]])
            #expect(rows.map { $0["id"] as? String } == ["1up60hse"])
            #expect(rows.first?["source"] as? String == "VIA v3 definition")
            let text = try await harness.kblink(["layout", "list"])
            #expect(text.standardOutput.contains("0x05AC:0x0256"), "\(text.standardOutput)")
            let detail = try await harness.kblink(["layout", "show", "1up60hse", "--json"])
            let layout = try #require(try Self.json(detail.standardOutput) as? [String: Any])
            let layoutKeys = try #require(layout["keys"] as? [[String: Any]])
            let space = layoutKeys.first { $0["name"] as? String == "SPACE" }
            #expect(space?["row"] as? Int == 4 && space?["col"] as? Int == 5 && space?["action"] as? String == "KC_SPC")
            // Stored atomically in the state directory, the daemon's own.
            let stored = state + "/added-layouts/1up60hse.json"
            let attributes = try FileManager.default.attributesOfItem(atPath: stored)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
        try await withDaemon(options: { $0.stateDirectory = state }) { harness in
            try await harness.waitForInterface(KBlink.keymapInterface, at: Self.vgnPath)
            #expect(try await Self.vgnLayout(harness) == "1up60hse", "reloaded at start and matched again")
            let list = try await harness.kblink(["layout", "list", "--json"])
            #expect(list.standardOutput.contains("\"id\":\"1up60hse\""), "\(list.standardOutput)")
            let removed = try await harness.kblink(["layout", "remove", "1up60hse"])
            #expect(removed.status == 0, "\(removed.standardError)")
            #expect(
                removed.standardOutput.contains("back on the layout its name suggests"), "\(removed.standardOutput)")
            #expect(try await Self.vgnLayout(harness) == "vgn-98pro")
            #expect(try await harness.kblink(["layout", "list", "--json"]).standardOutput == "[]\n")
            let missing = try await harness.kblink(["layout", "show", "1up60hse"])
            #expect(missing.status == 4 && missing.standardError.contains("no layout '1up60hse' was added"))
            #expect(!FileManager.default.fileExists(atPath: state + "/added-layouts/1up60hse.json"))
        }
    }

    @Test("a keyboard whose draft has edits keeps its layout until they are discarded; remove refuses meanwhile")
    func draftWithEdits() async throws {
        let directory = try TemporaryDirectory()
        let file = try Self.definitionFile(in: directory)
        try await withDaemon { harness in
            try await harness.waitForInterface(KBlink.keymapInterface, at: Self.vgnPath)
            #expect(try await harness.kblink(["keymap", "set", "vgn", "KP_0", "KC_INS"]).status == 0)
            let added = try await harness.kblink(["layout", "add", file])
            #expect(added.status == 0, "\(added.standardError)")
            #expect(
                added.standardOutput.contains("kept layout vgn-98pro: its draft has edits"), "\(added.standardOutput)")
            #expect(try await Self.vgnLayout(harness) == "vgn-98pro")
            #expect(try await harness.kblink(["keymap", "discard", "vgn"]).status == 0)
            let again = try await harness.kblink(["layout", "add", file, "--json"])
            #expect(again.standardOutput.contains("\"outcome\":\"applied\""), "\(again.standardOutput)")
            #expect(try await Self.vgnLayout(harness) == "1up60hse")
            #expect(try await harness.kblink(["keymap", "set", "vgn", "CAPS", "KC_LCTL"]).status == 0)
            let refused = try await harness.kblink(["layout", "remove", "1up60hse"])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("draft has edits on layout 1up60hse"), "\(refused.standardError)")
            #expect(try await harness.kblink(["layout", "list", "--json"]).standardOutput.contains("1up60hse"))
        }
    }

    @Test("a broken definition is refused by the CLI with its line and column, and never reaches kblinkd")
    func brokenFile() async throws {
        let directory = try TemporaryDirectory()
        try await withDaemon { harness in
            let file = directory.path + "/bad.json"
            let text = VIADefinitionFixtureText.oneUp60HSE.replacing("\"0,7\"", with: "\"9,7\"")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let line = VIADefinitionFixtureText.line(of: "\"9,7\"", in: text)
            let result = try await harness.kblink(["layout", "add", file])
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("kblink: \(file): line \(line), column "), "\(result.standardError)")
            #expect(result.standardError.contains("outside the matrix of 5 rows and 14 columns"))
            #expect(try await harness.kblink(["layout", "list", "--json"]).standardOutput == "[]\n")
            let builtIn = try await harness.kblink([
                "layout", "add", try Self.definitionFile(in: directory), "--id", "ansi-60",
            ])
            #expect(
                builtIn.status == 2 && builtIn.standardError.contains("built-in layout"), "\(builtIn.standardError)")
            let options = try await harness.kblink(["layout", "add", file, "--options", "x"])
            #expect(options.status == 2 && options.standardError.contains("--options takes"))
            let misplaced = try await harness.kblink(["layout", "list", "--id", "x"])
            #expect(misplaced.status == 2)
        }
    }

    @Test("kblinkd checks the layout again: what the CLI would refuse is refused on the bus too")
    func daemonValidates() async throws {
        try await withDaemon { harness in
            let client = try await harness.client()
            defer { Task { await client.close() } }
            let good = KeyboardLayoutDefinition(
                id: "pad", name: "Pad", vendorID: 0x1234, productID: 0x5678, matrixRows: 1, matrixColumns: 2,
                source: "test",
                keys: [
                    LayoutKeyRow(
                        name: "A", zone: "standard", x: 0, y: 0, width: 1, height: 1, row: 0, column: 0, action: "KC_A"),
                    LayoutKeyRow(
                        name: "B", zone: "standard", x: 1, y: 0, width: 1, height: 1, row: 0, column: 1, action: "KC_B"),
                ])
            var outside = good
            outside.keys[1].column = 2
            var duplicate = good
            duplicate.keys[1].name = "A"
            var overlapping = good
            overlapping.keys[1].x = 0.5
            var badID = good
            badID.id = "../../etc/passwd"
            var noIDs = good
            (noIDs.vendorID, noIDs.productID) = (0, 0)
            var badAction = good
            badAction.keys[0].action = "KC_NOPE"
            var builtIn = good
            builtIn.id = "aula-f87"
            let refusals: [(KeyboardLayoutDefinition, String)] = [
                (outside, "outside the 1 × 2 matrix"), (duplicate, "two keys named A"), (overlapping, "overlap"),
                (badID, "is not a layout id"), (noIDs, "match no keyboard"), (badAction, "KC_NOPE"),
                (builtIn, "built-in layout"),
            ]
            for (definition, fragment) in refusals {
                await KeymapFixture.expectError(.invalidArgs, containing: [fragment]) {
                    _ = try await client.manager.call(KBlinkContract.Manager.addLayout, definition)
                }
            }
            #expect(try await client.manager.call(KBlinkContract.Manager.listLayouts).isEmpty)
            #expect(try await client.manager.call(KBlinkContract.Manager.addLayout, good).isEmpty)
            var sameIDs = good
            sameIDs.id = "pad-2"
            await KeymapFixture.expectError(.conflict, containing: ["layout pad is for 1234:5678 already"]) {
                _ = try await client.manager.call(KBlinkContract.Manager.addLayout, sameIDs)
            }
            #expect(try await client.manager.call(KBlinkContract.Manager.getLayout, "pad") == good)
        }
    }

    @Test("adding and removing a layout needs org.kblink1.edit-keymap: a stranger polkit says no to is refused")
    func strangerRefused() async throws {
        try #require(getuid() == 0, "the stranger runs as nobody through setpriv, which needs root")
        let directory = "/tmp/kblink-layout-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/vgn.json"
        try VIADefinitionFixtureText.oneUp60HSE(vendorID: "0x05AC", productID: "0x0256")
            .write(toFile: file, atomically: false, encoding: .utf8)
        #expect(chmod(file, 0o644) == 0)
        try await withDaemon(options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }) { harness in
            let polkit = try await PolkitMock(bus: harness.bus)
            defer { Task { await polkit.stop() } }
            try await harness.waitForInterface(KBlink.keymapInterface, at: Self.vgnPath)
            func kblinkAsStranger(_ arguments: [String]) async throws -> ProcessResult {
                try await runProcess(
                    "/usr/bin/setpriv",
                    ["--reuid=nobody", "--regid=nogroup", "--clear-groups", DaemonHarness.binary("kblink")]
                        + arguments + ["--bus", harness.bus.address],
                    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: .seconds(30))
            }
            let refused = try await kblinkAsStranger(["layout", "add", file])
            #expect(refused.status == 1, "\(refused.standardOutput)")
            #expect(refused.standardError.contains("org.kblink1.edit-keymap"), "\(refused.standardError)")
            #expect(try await Self.vgnLayout(harness) == "vgn-98pro")
            // Listing is open to everyone.
            let list = try await kblinkAsStranger(["layout", "list", "--json"])
            #expect(list.status == 0 && list.standardOutput == "[]\n", "\(list.standardError)")
            // Control: allowed, the same command adds it; removing is guarded the same way.
            try await polkit.allow([.editKeymap])
            let added = try await kblinkAsStranger(["layout", "add", file])
            #expect(added.status == 0, "\(added.standardError)")
            #expect(try await Self.vgnLayout(harness) == "1up60hse")
            try await polkit.allow([])
            let remove = try await kblinkAsStranger(["layout", "remove", "1up60hse"])
            #expect(remove.status == 1 && remove.standardError.contains("org.kblink1.edit-keymap"))
            #expect(try await Self.vgnLayout(harness) == "1up60hse")
        }
    }
}
