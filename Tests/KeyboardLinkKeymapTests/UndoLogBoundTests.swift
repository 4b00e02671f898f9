import KeyboardLinkSupport
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymap

/// The undo log's bounds: at most 1,000 edits and about 4 MiB of them, the oldest merged into one, the draft unchanged,
/// and a saved profile always loadable (issue 18: three 8 MB imports once made a 24.8 MB profile the daemon refused).
@Suite("Undo log bounds")
struct UndoLogBoundTests {
    static let address = (try? KeyboardAddress("aa-bb-cc-dd-ee-42"))!

    static func session() throws -> KeymapEditSession {
        let layout = try PhysicalLayout.builtIn("full-ansi")
        return try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
    }

    /// A keymap of the session's layout with `count` macros of about `length` characters of text each, `tag` making
    /// each keymap's text its own.
    static func keymap(for session: KeymapEditSession, macros count: Int, length: Int, tag: Int) throws -> Keymap {
        var keymap = session.base
        // Text steps hold at most 1,000 characters.
        let steps = Array(repeating: "text '\(String(repeating: "abcdefghij", count: 99))'", count: length / 990)
        for index in 0..<count {
            let source = (steps + ["text '\(tag)-\(index)'"]).joined(separator: ", ")
            keymap.macros[try MacroName("m\(index)")] = try Macro(parsing: source)
        }
        return keymap
    }

    @Test("1,200 edits leave 1,000 in the log, the same draft, and undoing them all goes back to the base")
    func countBound() throws {
        var session = try Self.session()
        let keys = session.layout.keys.map(\.name)
        var expected: [KeyName: KeyAction] = [:]
        let actions = try ["KC_VOLU", "KC_MUTE", "KC_VOLD"].map { try KeyAction(parsing: $0) }
        for index in 0..<1_200 {
            let key = keys[index % keys.count]
            let action = actions[index % actions.count]
            try session.setBinding(key: key, action: action, layer: 1)
            expected[key] = action
        }
        #expect(session.operationLog.entries.count == KeymapEditSession.undoLimit)
        for (key, action) in expected { #expect(try session.action(layer: 1, key: key) == action) }
        // The merged edit comes first; everything after it is the newest 999 edits, unchanged.
        guard case .replaceKeymap = session.operationLog.entries.first else {
            Issue.record(
                "the oldest entry is not the merged import: \(String(describing: session.operationLog.entries.first))")
            return
        }
        var undos = 0
        while session.canUndo {
            try session.undo()
            undos += 1
        }
        #expect(undos == KeymapEditSession.undoLimit)
        #expect(!session.isDirty)
        // Redo all the way gives the draft back.
        while session.canRedo { try session.redo() }
        for (key, action) in expected { #expect(try session.action(layer: 1, key: key) == action) }
    }

    @Test("a bounded log is saved and restored with the same draft, undo and redo")
    func savedAndRestored() throws {
        var session = try Self.session()
        for (index, key) in session.layout.keys.prefix(120).map(\.name).enumerated() {
            try session.setBinding(key: key, action: try KeyAction(parsing: index % 3 == 0 ? "KC_A" : "KC_B"), layer: 2)
        }
        for _ in 0..<10 { try session.undo() }
        let stored = StoredProfile(address: Self.address, session: session)
        let restored = try StoredProfile(json: stored.json()).session(layout: session.layout)
        #expect(restored.draftKeymap == session.draftKeymap)
        #expect(restored.operationLog == session.operationLog)
    }

    @Test("imports of 1 MiB of macros each keep the log near 4 MiB and the saved profile far under 16 MiB")
    func byteBound() throws {
        let directory = try TemporaryDirectory()
        let store = ProfileStore(directory: directory.path)
        var session = try Self.session()
        var last: Keymap?
        for tag in 0..<10 {
            let keymap = try Self.keymap(for: session, macros: 100, length: 10_000, tag: tag)
            #expect(keymap.macroTextSize <= Keymap.maximumMacroText)
            try session.apply(.importProfile(keymap))
            last = keymap
            try store.save(session, for: Self.address)
        }
        // Over the budget only by the newest edit, which is never merged away.
        #expect(session.undoLogSize <= KeymapEditSession.undoByteBudget + (session.log.entries.last?.size ?? 0))
        #expect(session.draftKeymap.macros == last?.macros)
        let bytes = try #require(try FileStore().read(store.path(for: Self.address)))
        #expect(bytes.count < 12 << 20, "the profile is \(bytes.count) bytes")
        guard case .loaded(let profile) = try store.load(Self.address) else {
            Issue.record("the saved profile did not load")
            return
        }
        let restored = try profile.session(layout: session.layout)
        #expect(restored.draftKeymap == session.draftKeymap)
        #expect(restored.canUndo)
    }

    @Test("layer moves of a keymap of 32 different layers count what they moved: the log stays near 4 MiB")
    func layerMovesCountTheirChanges() throws {
        let layout = try PhysicalLayout.builtIn("full-ansi")
        // Every layer different from every other, so that moving layer 0 to the end changes every binding.
        var base = Keymap(defaultsFor: layout, layerCount: Keymap.maximumLayers)
        let actions = try (1...24).map { try KeyAction(parsing: "KC_F\($0)") }
        for layer in 0..<Keymap.maximumLayers {
            for (index, key) in layout.keys.map(\.name).enumerated() {
                base.setAction(actions[(layer + index) % actions.count], layer: layer, key: key)
            }
        }
        var session = try KeymapEditSession(layout: layout, base: base)
        let moves = 150
        for _ in 0..<moves { try session.moveLayer(from: 0, to: Keymap.maximumLayers - 1) }
        let newest = try #require(session.log.entries.last)
        #expect(
            newest.change.bindings.count > layout.keys.count * 20, "one move changed \(newest.change.bindings.count)")
        // Each move changed thousands of bindings: the log merged its oldest edits instead of keeping 150 of them.
        #expect(session.log.entries.count < moves)
        #expect(session.undoLogSize <= KeymapEditSession.undoByteBudget + newest.size)
        // The draft is still the base with layer 0 moved to the end 150 times, and undo goes all the way back.
        var expected = base
        for _ in 0..<moves {
            var moved = expected
            for layer in 0..<Keymap.maximumLayers {
                for key in layout.keys.map(\.name) {
                    let from = (layer + 1) % Keymap.maximumLayers
                    moved.setAction(try #require(expected.action(layer: from, key: key)), layer: layer, key: key)
                }
            }
            expected = moved
        }
        for layer in [0, 1, 17, 31] {
            for key in layout.keys.map(\.name) {
                #expect(session.draftKeymap.action(layer: layer, key: key) == expected.action(layer: layer, key: key))
            }
        }
        while session.canUndo { try session.undo() }
        #expect(!session.isDirty)
    }

    @Test("a keymap's macros may hold at most 1 MiB of text, by import or by SetMacro")
    func macroTextBound() throws {
        var session = try Self.session()
        let big = try Self.keymap(for: session, macros: 120, length: 10_000, tag: 0)
        #expect(big.macroTextSize > Keymap.maximumMacroText)
        #expect(throws: KeymapError.self) { try session.apply(.importProfile(big)) }
        #expect(!session.isDirty)
        let fits = try Self.keymap(for: session, macros: 100, length: 10_000, tag: 0)
        try session.apply(.importProfile(fits))
        let more = try Macro(
            parsing: "text '\(String(repeating: "z", count: 900))', "
                + Array(repeating: "text 'zzzzzzzzzz'", count: 10).joined(separator: ", "))
        var added = 0
        do {
            for index in 0..<200 {
                try session.setMacro(try MacroName("extra\(index)"), more)
                added += 1
            }
        } catch {
            #expect("\(error)".contains("at most 1048576 (1 MiB)"))
        }
        #expect(added > 0 && added < 200)
        #expect(session.draftKeymap.macroTextSize <= Keymap.maximumMacroText)
    }
}
