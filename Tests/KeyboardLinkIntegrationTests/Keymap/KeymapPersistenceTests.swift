import Foundation
import KeyboardLinkTestSupport
import Synchronization
import Testing

@testable import KBlinkAPI
@testable import KeyboardLinkClient
@testable import KeyboardLinkKeymap
@testable import KeyboardLinkService
@testable import KeyboardLinkSimulator
@testable import KeyboardLinkSupport

/// Profiles on disk: saved before every reply, restored at start, corrupt ones set aside, write errors reported.
@Suite("Keymap profiles are saved, restored and never lost")
struct KeymapPersistenceTests {
    @Test("the draft, the operation log and the zone on show are restored when the daemon starts again")
    func restoredAtStart() async throws {
        let directory = try KeymapFixture.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = try await withDaemon(options: { $0.stateDirectory = directory }) { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                try await keymap.setMacro(name: "hello", definition: "text 'hello', enter")
                try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
                try await keymap.setBinding(layer: 1, key: "F1", action: "MACRO(hello)")
                try await keymap.setBinding(layer: 2, key: "UP", action: "KC_PGUP")
                try await keymap.undo()
                try await keymap.selectZone("function")
                return (try await keymap.exportProfile(), try await keymap.diff(), try await keymap.state())
            }
        }
        #expect(FileManager.default.fileExists(atPath: KeymapFixture.profilePath(directory, KeymapFixture.aula)))
        try await withDaemon(options: { $0.stateDirectory = directory }) { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                #expect(try await keymap.exportProfile() == before.0)
                #expect(try await keymap.diff() == before.1)
                let state = try await keymap.state()
                #expect(state == before.2)
                #expect(state.currentZone == "function" && state.canUndo && state.canRedo)
                try await keymap.redo()
                #expect(try await keymap.diff().filter { $0.zone != "macro" }.map(\.key) == ["CAPS", "F1", "UP"])
                try await keymap.undo()
                try await keymap.undo()
                try await keymap.undo()
                #expect(try await keymap.macros() == ["hello": "text 'hello', enter"])
            }
        }
    }

    @Test("a keyboard that goes away and comes back gets its draft back")
    func keyboardComesBack() async throws {
        try await withDaemon { harness in
            // The session opens a moment before the Keymap interface is exported: wait for the interface.
            let path = KBlink.keyboardPath(KeymapFixture.vgn)
            try await harness.waitForInterface(KBlink.keymapInterface, at: path)
            _ = try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { keymap in
                try await keymap.setBinding(zone: "number", layer: 0, key: "KP_0", action: "KC_INS")
            }
            let device = try #require(await harness.bluez.device(KeymapFixture.vgn))
            await harness.bluez.remove(KeymapFixture.vgn)
            #expect(await eventually { await harness.service.keymaps.session(for: KeymapFixture.vgn) == nil })
            try await harness.bluez.add(device)
            try await harness.waitForInterface(KBlink.keymapInterface, at: path)
            let diff = try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { try await $0.diff() }
            #expect(diff.map(\.new) == ["KC_INS"])
        }
    }

    @Test("a failed write (disk full) answers Failed, changes nothing and leaves the previous profile intact")
    func diskFull() async throws {
        try await withDaemon { harness in
            let profiles = harness.stateDirectory + "/profiles"
            let path = KeymapFixture.profilePath(harness.stateDirectory, KeymapFixture.aula)
            try await KeymapFixture.withKeymap(harness) { keymap in
                try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
                let saved = try Data(contentsOf: URL(fileURLWithPath: path))
                let stateBefore = try await keymap.state()

                var full = FileSyscalls.system
                full.write = { _, _ in -Int(ENOSPC) }
                await harness.service.keymaps.replaceStore(
                    ProfileStore(directory: profiles, files: FileStore(syscalls: full), clock: { 0 }))
                await KeymapFixture.expectError(
                    .failed,
                    containing: ["not made", "no space left on the device", "previous profile is intact"]
                ) {
                    try await keymap.setBinding(layer: 0, key: "A", action: "KC_B")
                }
                await KeymapFixture.expectError(.failed, containing: ["no space left"]) {
                    try await keymap.selectZone("navigation")
                }
                await KeymapFixture.expectError(.failed, containing: ["no space left"]) {
                    try await keymap.undo()
                }
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == saved)
                #expect(try FileManager.default.contentsOfDirectory(atPath: profiles) == ["F8_70_00_00_00_87.json"])
                #expect(try await keymap.diff().map(\.key) == ["CAPS"], "the refused edit is not in the draft")
                #expect(try await keymap.state() == stateBefore)

                var unsyncable = FileSyscalls.system
                unsyncable.fsync = { _ in -EIO }
                await harness.service.keymaps.replaceStore(
                    ProfileStore(directory: profiles, files: FileStore(syscalls: unsyncable), clock: { 0 }))
                await KeymapFixture.expectError(.failed, containing: ["input/output error"]) {
                    try await keymap.setMacro(name: "x", definition: "x")
                }
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == saved)

                await harness.service.keymaps.replaceStore(ProfileStore(directory: profiles))
                try await keymap.setBinding(layer: 0, key: "A", action: "KC_B")
                #expect(try await keymap.diff().map(\.key) == ["CAPS", "A"], "reading order")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != saved)
            }
        }
    }

    @Test("a directory fsync failing after the rename: the edit is made, memory matches the disk, a warning is logged")
    func directorySyncFails() async throws {
        let directory = try KeymapFixture.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let profiles = directory + "/profiles"
        let path = KeymapFixture.profilePath(directory, KeymapFixture.aula)
        let messages = try await Self.withLoggingService(stateDirectory: directory) { keymap, service in
            try await keymap.setBinding(layer: 0, key: "CAPS", action: "KC_LCTL")
            let saved = try Data(contentsOf: URL(fileURLWithPath: path))
            await service.keymaps.replaceStore(
                ProfileStore(
                    directory: profiles, files: FileStore(syscalls: DirectorySyncFailure().syscalls), clock: { 0 }))
            try await keymap.setBinding(layer: 0, key: "A", action: "KC_B")
            #expect(try await keymap.diff().map(\.key) == ["CAPS", "A"], "the edit is made")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != saved)
            #expect(try FileManager.default.contentsOfDirectory(atPath: profiles) == ["F8_70_00_00_00_87.json"])
            // What a restarted daemon would read is what this one holds.
            let stored = try ProfileStore(directory: profiles).load(try KeyboardAddress(KeymapFixture.aula.description))
            guard case .loaded(let profile) = stored else {
                Issue.record("the profile did not load: \(stored)")
                return
            }
            #expect(profile.draft == (await service.keymaps.session(for: KeymapFixture.aula))?.draftRecord)
        }
        let warning = try #require(messages.first { $0.contains("syncing the directory") })
        #expect(
            warning.contains("was saved") && warning.contains("input/output error") && !warning.contains("not made"))
    }

    @Test("a corrupt profile is set aside and reported; the keyboard starts clean")
    func corruptProfile() async throws {
        let directory = try KeymapFixture.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = KeymapFixture.profilePath(directory, KeymapFixture.aula)
        try FileManager.default.createDirectory(atPath: directory + "/profiles", withIntermediateDirectories: true)
        let garbage = "{\"schemaVersion\": 1, \"address\": \"F8:70:00:00:00:87\", \"layout\": 7"
        try garbage.write(toFile: path, atomically: true, encoding: .utf8)
        let messages = try await Self.withLoggingService(stateDirectory: directory) { keymap in
            let state = try await keymap.state()
            #expect(state.layout == "aula-f87" && !state.dirty && !state.canUndo)
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/profiles")
        let aside = try #require(names.first { $0.hasPrefix("F8_70_00_00_00_87.json.corrupt-") })
        #expect(try String(contentsOfFile: directory + "/profiles/" + aside, encoding: .utf8) == garbage)
        #expect(names.contains("F8_70_00_00_00_87.json"), "the new edit was saved in a new file")
        let report = try #require(messages.first { $0.contains("corrupt") })
        #expect(report.contains("Aula F87") && report.contains(aside) && report.contains("starts with a clean keymap"))
    }

    @Test("a newer kblink's profile is left untouched; the keymap refuses reads and edits until it is moved away")
    func newerProfile() async throws {
        let directory = try KeymapFixture.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let profiles = directory + "/profiles"
        let path = KeymapFixture.profilePath(directory, KeymapFixture.aula)
        try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
        let newer = #"{"schemaVersion": 2, "address": "F8:70:00:00:00:87", "keymap": {"from": "the future"}}"#
        try newer.write(toFile: path, atomically: true, encoding: .utf8)
        let fragments = [path, "written by a newer kblink", "schemaVersion 2", "left untouched"]

        // Twice: what a downgraded daemon does must not change what the next start finds.
        for _ in 0..<2 {
            let messages = try await Self.withLoggingService(stateDirectory: directory) { keymap in
                await KeymapFixture.expectError(.notSupported, containing: fragments) {
                    _ = try await keymap.diff()
                }
                await KeymapFixture.expectError(.notSupported, containing: fragments) {
                    try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
                }
                await KeymapFixture.expectError(.notSupported, containing: fragments) {
                    try await keymap.selectZone("navigation")
                }
                await KeymapFixture.expectError(.notSupported, containing: fragments) {
                    try await keymap.discard()
                }
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == newer)
            #expect(try FileManager.default.contentsOfDirectory(atPath: profiles) == ["F8_70_00_00_00_87.json"])
            let report = try #require(messages.first { $0.contains("newer kblink") })
            #expect(report.contains(path) && report.contains("left untouched") && !report.contains("set aside"))
        }

        // Once the file is moved away, the keyboard goes on with a clean keymap, without a restart.
        let messages = try await Self.withLoggingService(stateDirectory: directory) { keymap in
            await KeymapFixture.expectError(.notSupported, containing: fragments) {
                _ = try await keymap.diff()
            }
            try FileManager.default.moveItem(atPath: path, toPath: directory + "/kept-v2.json")
            try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
            #expect(try await keymap.diff().map(\.key) == ["ESC"])
        }
        #expect(try String(contentsOfFile: directory + "/kept-v2.json", encoding: .utf8) == newer)
        #expect(messages.contains { $0.contains("moved away") })
        guard
            case .loaded(let profile) = try ProfileStore(directory: profiles).load(
                try KeyboardAddress(KeymapFixture.aula.description))
        else {
            Issue.record("the edit made after the move was not saved")
            return
        }
        #expect(profile.draft.operations.count == 1)
    }

    @Test("the profile's layout wins over the name; a profile for an unknown layout is set aside")
    func layoutFromProfile() async throws {
        let directory = try KeymapFixture.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = ProfileStore(directory: directory + "/profiles")
        let tkl = try PhysicalLayout.builtIn("tkl-ansi")
        var session = try KeymapEditSession(layout: tkl, base: Keymap(defaultsFor: tkl))
        try session.setBinding(zone: "", layer: 0, key: "RGUI", action: "KC_APP")
        try store.save(session, for: try KeyboardAddress(KeymapFixture.aula.description))
        // The VGN's profile names a user layout that is not installed.
        let custom = try PhysicalLayout(
            id: try LayoutID("my-board"), name: "Mine",
            keys: [
                PhysicalKey(
                    name: try KeyName("A"), zone: .standard, frame: KeyFrame(x: 0, y: 0),
                    matrix: MatrixPosition(row: 0, column: 0), defaultAction: .key(HIDUsage(page: 7, id: 4)))
            ])
        try store.save(
            try KeymapEditSession(layout: custom, base: Keymap(defaultsFor: custom)),
            for: try KeyboardAddress(KeymapFixture.vgn.description))

        let messages = try await Self.withLoggingService(stateDirectory: directory) { keymap in
            let state = try await keymap.state()
            #expect(state.layout == "tkl-ansi")
            #expect(try await keymap.diff().map(\.key) == ["RGUI"])
            let vgn = KeymapClient(connection: keymap.proxy.connection, path: KBlink.keyboardPath(KeymapFixture.vgn))
            #expect(try await vgn.state().layout == "vgn-98pro")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/profiles")
        #expect(names.contains { $0.hasPrefix("98_00_00_00_98_01.json.unusable-") })
        #expect(messages.contains { $0.contains("layout my-board is not known") })

        // With the layout installed in <state>/layouts, the same profile is used.
        try FileManager.default.createDirectory(atPath: directory + "/layouts", withIntermediateDirectories: true)
        try Data(custom.jsonData()).write(to: URL(fileURLWithPath: directory + "/layouts/my-board.json"))
        try store.save(
            try KeymapEditSession(layout: custom, base: Keymap(defaultsFor: custom)),
            for: try KeyboardAddress(KeymapFixture.vgn.description))
        _ = try await Self.withLoggingService(stateDirectory: directory) { keymap async throws in
            let vgn = KeymapClient(connection: keymap.proxy.connection, path: KBlink.keyboardPath(KeymapFixture.vgn))
            #expect(try await vgn.state().layout == "my-board")
            #expect(try await vgn.keys().map(\.key) == ["A"])
        }
    }

    /// Runs the service with a log collector on a private bus with the demo keyboards; `body` gets the Aula's
    /// keymap. Returns the logged messages.
    static func withLoggingService(
        stateDirectory: String, _ body: (KeymapClient) async throws -> Void
    ) async throws -> [String] {
        try await withLoggingService(stateDirectory: stateDirectory) { keymap, _ in try await body(keymap) }
    }

    /// Like `withLoggingService(stateDirectory:_:)`; `body` gets the service too.
    static func withLoggingService(
        stateDirectory: String, _ body: (KeymapClient, KeyboardLinkService) async throws -> Void
    ) async throws -> [String] {
        let bus = try await TestBus()
        let bluez = SimulatedBlueZ.demo(bus: bus.busAddress)
        try await bluez.start()
        let messages = Mutex<[String]>([])
        let connection = try await bus.connect()
        let service = KeyboardLinkService(
            connection: connection, options: .init(stateDirectory: stateDirectory),
            log: { _, message in messages.withLock { $0.append(message) } })
        let client = try await bus.connect()
        do {
            try await service.start()
            try await body(KeymapClient(connection: client, path: KBlink.keyboardPath(KeymapFixture.aula)), service)
        } catch {
            Issue.record(error)
        }
        await client.close()
        await service.stop()
        await connection.close()
        await bluez.kill()
        return messages.withLock { $0 }
    }
}
