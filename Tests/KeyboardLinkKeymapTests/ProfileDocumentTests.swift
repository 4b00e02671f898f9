import Testing

@testable import KeyboardLinkKeymap

@Suite("Profile export and import")
struct ProfileDocumentTests {
    @Test("export then import gives the same profile")
    func roundTrip() throws {
        var session = try ProfileStoreTests.editedSession()
        let json = session.exportProfileJSON()
        #expect(json.contains("\"CAPS\" : \"KC_LCTL\""))
        #expect(json.contains("\"sig\" : \"text 'Best regards', enter\""))
        #expect(try ProfileDocument(json: json) == session.exportProfile())

        var fresh = try KeymapEditSession(layout: session.layout, base: Keymap(defaultsFor: session.layout))
        try fresh.importProfile(json: json)
        #expect(fresh.draftKeymap == session.draftKeymap)
        #expect(fresh.operationLog.applied.count == 1, "an import is one edit")
        try fresh.undo()
        #expect(!fresh.isDirty)
        session.discard()
        #expect(session.exportProfileJSON() != json)
    }

    @Test("any spelling imports; keys a layer leaves out are cleared")
    func spellingsAndMissingKeys() throws {
        let layout = try PhysicalLayout.builtIn("ansi-60")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        let json = #"""
            {"schemaVersion": 1, "layout": "ansi-60",
             "layers": [{"A": "&kp LS(N1)", "S": "KEY_KP1", "ESC": "MACRO(hi)"}, {"A": "&mo 0"}],
             "macros": {"hi": "text 'hi'"}}
            """#
        // Merged (the default): the keys the profile names change, the rest stay.
        var merged = session
        let summary = try merged.importProfile(json: json)
        #expect(summary.bindings.map(\.key.rawValue) == ["ESC", "A", "S", "A"])
        #expect(summary.cleared == 0)
        #expect(try merged.action(layer: 0, key: try KeyName("D")) == .key(.keyboard(0x07)))
        #expect(try merged.action(layer: 1, key: try KeyName("A")) == .momentaryLayer(0))
        // Replaced: every key the profile leaves out is cleared, counted.
        let replaced = try session.importProfile(json: json, replace: true)
        #expect(replaced.cleared == layout.keys.count - 3)
        #expect(
            try session.action(layer: 0, key: try KeyName("A"))
                == .key(KeyPress(.keyboard(0x1E), modifiers: .leftShift)))
        #expect(try session.action(layer: 0, key: try KeyName("S")) == .key(.keyboard(0x59)))
        #expect(try session.action(layer: 0, key: try KeyName("D")) == .none)
        #expect(try session.action(layer: 1, key: try KeyName("A")) == .momentaryLayer(0))
        #expect(try session.action(layer: 1, key: try KeyName("D")) == .transparent)
        #expect(try session.action(layer: 3, key: try KeyName("D")) == .transparent)
        #expect(session.macros.keys.map(\.rawValue) == ["hi"])
    }

    @Test(
        "bad profiles are refused naming the problem",
        arguments: [
            (
                #"{"schemaVersion": 1, "layout": "tkl-ansi", "layers": [{}]}"#,
                "invalid profile: the profile is for layout tkl-ansi; this keyboard's layout is ansi-60"
            ),
            (
                #"{"schemaVersion": 1, "layout": "ansi-60", "layers": [{"KP_1": "KC_A"}]}"#,
                "invalid profile: the profile binds key KP_1, which layout ansi-60 does not have"
            ),
            (
                #"{"schemaVersion": 1, "layout": "ansi-60", "layers": [{"A": "KC_ENTRE"}]}"#,
                "invalid profile: layer 0, key A: unknown key code 'KC_ENTRE'; did you mean 'KC_ENTER'?"
            ),
            (
                #"{"schemaVersion": 1, "layout": "ansi-60", "layers": [{"A": "MO(3)"}]}"#,
                "invalid profile: layer 0, key A: layer 3 does not exist: this keymap has layers 0 to 0"
            ),
            (
                #"{"schemaVersion": 1, "layout": "ansi-60", "layers": [{"A": "MACRO(x)"}]}"#,
                "invalid profile: layer 0, key A: no macro named 'x'; define it first"
            ),
            (
                #"{"schemaVersion": 1, "layout": "ansi-60", "layers": [{}], "macros": {"x": "delay 99999"}}"#,
                "invalid profile: macro 'x': invalid macro: step 1: delay 99999 ms is outside 0 to 10000 ms"
            ),
            (
                #"{"schemaVersion": 1, "layout": "ansi-60", "layers": [{}, {}, {}, {}, {}]}"#,
                "invalid profile: the profile has 5 layers and this keyboard 4"
            ),
            (
                #"{"schemaVersion": 1, "layout": "ansi-60", "layers": {}}"#,
                "invalid profile: layers should be a list"
            ),
            (#"{"layout": "ansi-60"}"#, "invalid profile: the document has no schemaVersion"),
            ("[1, 2", "invalid profile: "),
        ])
    func badProfiles(json: String, message: String) throws {
        let layout = try PhysicalLayout.builtIn("ansi-60")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        do {
            try session.importProfile(json: json)
            Issue.record("the import should fail")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
        #expect(!session.canUndo)
    }
}
