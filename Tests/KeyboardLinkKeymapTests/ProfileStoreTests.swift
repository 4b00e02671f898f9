import Glibc
import KeyboardLinkSupport
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymap

@Suite("Profiles on disk")
struct ProfileStoreTests {
    static let address = (try? KeyboardAddress("aa-bb-cc-dd-ee-0f"))!

    static func editedSession() throws -> KeymapEditSession {
        let layout = try PhysicalLayout.builtIn("vgn-98pro")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        try session.setMacro(try MacroName("sig"), try Macro(parsing: "text 'Best regards', enter"))
        try session.setBinding(key: try KeyName("CAPS"), action: try KeyAction(parsing: "KC_LCTL"), layer: 0)
        try session.setBinding(key: try KeyName("F1"), action: .macro(try MacroName("sig")), layer: 1)
        try session.clearZone(.number, layer: 2)
        try session.swapZones(ZoneSlot(.number, layer: 0), ZoneSlot(.number, layer: 3))
        try session.undo()
        try session.selectZone(.number)
        return session
    }

    @Test("addresses are validated and normalized")
    func addresses() throws {
        #expect(Self.address.rawValue == "AA:BB:CC:DD:EE:0F")
        #expect(Self.address.fileStem == "AA_BB_CC_DD_EE_0F")
        for bad in ["", "AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE:GG", "AAA:BB:CC:DD:EE:FF", "../../etc/passwd"] {
            #expect(throws: KeymapError.invalidAddress(bad)) { try KeyboardAddress(bad) }
        }
    }

    @Test("a saved draft comes back after a restart: same draft, undo history and zone")
    func saveAndRestore() throws {
        let directory = try TemporaryDirectory()
        let store = ProfileStore(directory: directory.path + "/profiles")
        let session = try Self.editedSession()
        try store.save(session, for: Self.address)
        #expect(directory.list("profiles") == ["AA_BB_CC_DD_EE_0F.json"], "no temporary file is left behind")
        guard case .loaded(let profile) = try store.load(Self.address) else {
            Issue.record("the profile did not load")
            return
        }
        var restored = try profile.session(layout: session.layout)
        #expect(restored.draftKeymap == session.draftKeymap)
        #expect(restored.currentZone == .number)
        #expect(restored.canRedo)
        try restored.redo()
        #expect(try restored.action(layer: 3, key: try KeyName("KP_5")) == .key(.keyboard(0x5D)))
        let text = directory.read("profiles/AA_BB_CC_DD_EE_0F.json") ?? ""
        #expect(text.contains("\"schemaVersion\" : 1"))
        #expect(text.contains("\"op\" : \"swapZones\""))
        #expect(try store.load(try KeyboardAddress("00:00:00:00:00:01")) == .notFound)
    }

    @Test("every acknowledged edit survives: saving after each edit, the last file holds them all")
    func saveAfterEachEdit() throws {
        let directory = try TemporaryDirectory()
        let store = ProfileStore(directory: directory.path)
        let layout = try PhysicalLayout.builtIn("aula-f87")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        var random = SeededRandom(seed: 11)
        let generator = KeymapEditGenerator(layout: layout, layerCount: session.layerCount)
        for _ in 0..<60 {
            guard (try? session.apply(generator.next(using: &random, macros: session.macros))) == true else { continue }
            try store.save(session, for: Self.address)
            // What a fresh daemon would read right now, had this one been killed after the save returned.
            guard case .loaded(let profile) = try store.load(Self.address) else {
                Issue.record("the profile did not load")
                return
            }
            #expect(try profile.session(layout: layout).draftKeymap == session.draftKeymap)
        }
    }

    @Test("a full disk gives a clear error and leaves the previous profile intact")
    func fullDisk() throws {
        let directory = try TemporaryDirectory()
        let good = ProfileStore(directory: directory.path)
        var session = try Self.editedSession()
        try good.save(session, for: Self.address)
        let before = directory.read("AA_BB_CC_DD_EE_0F.json")

        var syscalls = FileSyscalls.system
        syscalls.write = { _, _ in -Int(ENOSPC) }
        let full = ProfileStore(directory: directory.path, files: FileStore(syscalls: syscalls), clock: { 0 })
        try session.setBinding(key: try KeyName("A"), action: .none, layer: 0)
        #expect {
            try full.save(session, for: Self.address)
        } throws: { error in
            guard case .io(_, _, let code) = error as? KeymapError, code == ENOSPC else { return false }
            return (error as? KeymapError)?.description.contains("no space left on the device") == true
        }
        #expect(directory.read("AA_BB_CC_DD_EE_0F.json") == before)
        #expect(directory.list() == ["AA_BB_CC_DD_EE_0F.json"], "the temporary file is removed")

        var failingSync = FileSyscalls.system
        failingSync.fsync = { _ in -EIO }
        let broken = ProfileStore(directory: directory.path, files: FileStore(syscalls: failingSync), clock: { 0 })
        #expect(throws: KeymapError.self) { try broken.save(session, for: Self.address) }
        #expect(directory.read("AA_BB_CC_DD_EE_0F.json") == before)
        #expect(directory.list() == ["AA_BB_CC_DD_EE_0F.json"])
    }

    @Test("a directory fsync failing after the rename is a durability warning: the new profile is the file")
    func directorySyncFailsAfterRename() throws {
        let directory = try TemporaryDirectory()
        let plain = ProfileStore(directory: directory.path)
        var session = try Self.editedSession()
        #expect(try plain.save(session, for: Self.address) == nil, "no warning when every step succeeds")
        let before = directory.read("AA_BB_CC_DD_EE_0F.json")

        let store = ProfileStore(
            directory: directory.path, files: FileStore(syscalls: DirectorySyncFailure().syscalls), clock: { 0 })
        try session.setBinding(key: try KeyName("A"), action: .none, layer: 0)
        let warning = try store.save(session, for: Self.address)
        guard case .io(let operation, _, let code) = warning else {
            Issue.record("expected a durability warning, got \(String(describing: warning))")
            return
        }
        #expect(operation == "syncing the directory" && code == EIO)
        #expect(directory.read("AA_BB_CC_DD_EE_0F.json") != before)
        #expect(directory.list() == ["AA_BB_CC_DD_EE_0F.json"], "no temporary file is left behind")
        guard case .loaded(let profile) = try plain.load(Self.address) else {
            Issue.record("the profile did not load")
            return
        }
        #expect(profile == StoredProfile(address: Self.address, session: session), "the new profile is on disk")
    }

    @Test("short writes and EINTR are retried until the whole file is written")
    func shortWritesAndInterrupts() throws {
        let directory = try TemporaryDirectory()
        let calls = SyscallCounter()
        var syscalls = FileSyscalls.system
        syscalls.write = { fd, bytes in
            // Every third call is interrupted; the others write at most 7 bytes.
            if calls.next() % 3 == 0 { return -Int(EINTR) }
            return FileSyscalls.system.write(fd, UnsafeRawBufferPointer(rebasing: bytes.prefix(7)))
        }
        let store = ProfileStore(directory: directory.path, files: FileStore(syscalls: syscalls), clock: { 0 })
        let session = try Self.editedSession()
        try store.save(session, for: Self.address)
        guard case .loaded(let profile) = try ProfileStore(directory: directory.path).load(Self.address) else {
            Issue.record("the profile did not load")
            return
        }
        #expect(profile == StoredProfile(address: Self.address, session: session))
    }

    @Test("a profile that does not parse is moved aside with a timestamp and reported, never overwritten")
    func corrupt() throws {
        let directory = try TemporaryDirectory()
        let store = ProfileStore(directory: directory.path, files: FileStore(), clock: { 1_700_000_000 })
        try directory.write("{ not json", to: "AA_BB_CC_DD_EE_0F.json")
        guard case .corrupt(let corrupt) = try store.load(Self.address) else {
            Issue.record("a broken file must be reported as corrupt")
            return
        }
        #expect(corrupt.preservedAt == directory.path + "/AA_BB_CC_DD_EE_0F.json.corrupt-1700000000")
        #expect(corrupt.reason.category == .invalidArgs)
        #expect(directory.read("AA_BB_CC_DD_EE_0F.json.corrupt-1700000000") == "{ not json")
        #expect(try store.load(Self.address) == .notFound)

        // A second broken file in the same second keeps the first one too.
        try directory.write("[]", to: "AA_BB_CC_DD_EE_0F.json")
        guard case .corrupt(let second) = try store.load(Self.address) else {
            Issue.record("a broken file must be reported as corrupt")
            return
        }
        #expect(second.preservedAt.hasSuffix(".corrupt-1700000000-2"))
        #expect(
            directory.list().sorted() == [
                "AA_BB_CC_DD_EE_0F.json.corrupt-1700000000", "AA_BB_CC_DD_EE_0F.json.corrupt-1700000000-2",
            ])
        try store.save(try Self.editedSession(), for: Self.address)
        #expect(directory.list().count == 3)
    }

    @Test("a corrupt profile set aside is reported as corrupt even when syncing its directory fails after the move")
    func corruptWithDirectorySyncFailing() throws {
        let directory = try TemporaryDirectory()
        let store = ProfileStore(
            directory: directory.path, files: FileStore(syscalls: DirectorySyncFailure().syscalls),
            clock: { 1_700_000_000 })
        try directory.write("{ not json", to: "AA_BB_CC_DD_EE_0F.json")
        guard case .corrupt(let corrupt) = try store.load(Self.address) else {
            Issue.record("a broken file must be reported as corrupt")
            return
        }
        #expect(corrupt.preservedAt == directory.path + "/AA_BB_CC_DD_EE_0F.json.corrupt-1700000000")
        #expect(directory.read("AA_BB_CC_DD_EE_0F.json.corrupt-1700000000") == "{ not json")
        #expect(try store.load(Self.address) == .notFound, "the keyboard starts clean, as after any set-aside")
    }

    /// A stored-profile document with the given parts (JSON text each).
    static func stored(
        schemaVersion: Int = 1, address: String = #""AA:BB:CC:DD:EE:0F""#, layout: String = #""x""#,
        base: String = #"{"layers": [{"A": "KC_A"}]}"#, cursor: Int = 0, operations: String = "[]"
    ) -> String {
        #"{"schemaVersion": \#(schemaVersion), "address": \#(address), "layout": \#(layout), "base": \#(base), "#
            + #""draft": {"currentZone": "standard", "cursor": \#(cursor), "operations": \#(operations)}}"#
    }

    static let hostile: [String] = [
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
        String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000),
        stored(layout: "\"" + String(repeating: "x", count: 3_000_000) + "\""),
        stored(base: "\"" + String(repeating: "y", count: 3_000_000) + "\""),
        #"{"schemaVersion": "1"}"#,
        #"{"schemaVersion": 0, "address": 5}"#,
        #"{"schemaVersion": 2, "address": "#,
        stored(address: "5"),
        stored(base: #"{"layers": []}"#),
        stored(base: #"{"layers": [{"A": 5}]}"#),
        stored(
            base: #"{"layers": [{"A": ""# + String(repeating: "LSFT(", count: 13) + "KC_A"
                + String(repeating: ")", count: 13) + #""}]}"#),
        stored(cursor: 5),
        stored(cursor: -1),
        stored(cursor: 1, operations: #"[{"op": "explode"}]"#),
        stored(cursor: 1, operations: #"[{"op": "setBinding", "layer": 0, "key": "A"}]"#),
        stored(cursor: 1, operations: #"[{"op": "setMacro", "name": "m", "definition": "delay 1e9"}]"#),
        stored(address: #""11:22:33:44:55:66""#),
        "\u{0}\u{1}\u{2}",
        "",
    ]

    @Test("hostile files are reported as corrupt without crashing", arguments: hostile)
    func hostileFiles(text: String) throws {
        let directory = try TemporaryDirectory()
        let store = ProfileStore(directory: directory.path, files: FileStore(), clock: { 7 })
        try directory.write(text, to: "AA_BB_CC_DD_EE_0F.json")
        guard case .corrupt(let corrupt) = try store.load(Self.address) else {
            Issue.record("a hostile file must be reported as corrupt")
            return
        }
        #expect(
            corrupt.reason.description.count < 600, "messages stay short: \(corrupt.reason.description.prefix(200))")
        #expect(directory.list() == ["AA_BB_CC_DD_EE_0F.json.corrupt-7"])
    }

    @Test("a file too large to be a profile is set aside too; parents of the directory are created")
    func tooLarge() throws {
        let directory = try TemporaryDirectory()
        let store = ProfileStore(directory: directory.path + "/state/profiles", files: FileStore(), clock: { 9 })
        try store.save(try Self.editedSession(), for: Self.address)
        try directory.write(
            String(repeating: " ", count: FileStore.maximumReadSize + 1), to: "state/profiles/AA_BB_CC_DD_EE_0F.json")
        guard case .corrupt(let corrupt) = try store.load(Self.address) else {
            Issue.record("expected corrupt")
            return
        }
        #expect(corrupt.reason == .invalidProfile("the file is larger than 16 MiB"))
        #expect(directory.list("state/profiles") == ["AA_BB_CC_DD_EE_0F.json.corrupt-9"])
    }

    /// Files that newer kblinks might write: only `schemaVersion` is read from them.
    static let newer: [(text: String, version: Int)] = [
        (#"{"schemaVersion": 2}"#, 2),
        (stored(schemaVersion: 2), 2),
        (#"{"schemaVersion": 99, "address": 5, "layers": {"unknown": [true]}}"#, 99),
    ]

    @Test("a file from a newer kblink is reported as such and left where it is, untouched", arguments: newer)
    func newerSchema(text: String, version: Int) throws {
        let directory = try TemporaryDirectory()
        let store = ProfileStore(directory: directory.path, files: FileStore(), clock: { 7 })
        try directory.write(text, to: "AA_BB_CC_DD_EE_0F.json")
        let expected = ProfileStore.LoadResult.newerSchema(
            ProfileStore.NewerProfile(path: directory.path + "/AA_BB_CC_DD_EE_0F.json", schemaVersion: version))
        #expect(try store.load(Self.address) == expected)
        #expect(try store.load(Self.address) == expected, "loading again finds it again")
        #expect(directory.list() == ["AA_BB_CC_DD_EE_0F.json"], "nothing is set aside")
        #expect(directory.read("AA_BB_CC_DD_EE_0F.json") == text)
    }

    @Test("user layouts load from a directory; bad files are reported and skipped")
    func userLayouts() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            String(decoding: try PhysicalLayout.builtIn("ansi-75").jsonData(), as: UTF8.self), to: "a.json")
        try directory.write(LayoutImportTests.raw60, to: "sixty.kle")
        try directory.write("{}", to: "broken.json")
        try directory.write("ignored", to: "notes.txt")
        let result = PhysicalLayout.loadUserLayouts(from: directory.path)
        #expect(result.layouts.map(\.id.rawValue) == ["ansi-75", "sixty"])
        #expect(result.problems.map(\.file) == ["broken.json"])
        #expect(PhysicalLayout.loadUserLayouts(from: directory.path + "/missing").layouts.isEmpty)
    }
}
