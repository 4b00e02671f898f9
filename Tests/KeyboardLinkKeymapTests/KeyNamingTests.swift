import Testing

@testable import KeyboardLinkKeymap

/// One key-naming scheme: key names, keycap spellings and picture labels all name the same key.
@Suite("Key names")
struct KeyNamingTests {
    @Test("keycap labels and spellings resolve to the key; names that fit two keys or none do not")
    func resolution() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        for (text, key) in [
            ("ENTER", "ENTER"), ("ENT", "ENTER"), ("KC_ENT", "ENTER"), ("RET", "ENTER"), ("KEY_ENTER", "ENTER"),
            ("GRV", "GRAVE"), ("EQL", "EQUAL"), ("MO(1)", "FN"), ("RGHT", "RIGHT"), ("spc", "SPACE"),
        ] {
            #expect(try layout.resolveKey(text).name.rawValue == key, "\(text)")
        }
        #expect(throws: KeymapError.self) { try layout.resolveKey("KC_NO") }
        #expect(throws: KeymapError.self) { try layout.resolveKey("P1") }
        do {
            _ = try layout.resolveKey("ENTRE")
            Issue.record("ENTRE resolved")
        } catch {
            #expect(error.description.contains("did you mean 'ENTER'?"), "\(error)")
        }
    }

    @Test("a key named by its cap is edited under its own name")
    func sessionUsesTheKeysName() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        try session.setBinding(key: try KeyName("ENT"), action: try KeyAction(parsing: "KC_A"), layer: 0)
        #expect(try session.action(layer: 0, key: try KeyName("ENTER")) == (try KeyAction(parsing: "KC_A")))
        #expect(session.diff().map(\.key.rawValue) == ["ENTER"])
        let imported = try session.importProfile(
            json: #"{"schemaVersion": 1, "layout": "aula-f87", "layers": [{"GRV": "KC_ESC"}]}"#)
        #expect(imported.bindings.map(\.key.rawValue) == ["GRAVE"])
    }

    @Test("typos are never answered with KC_NO or KC_TRNS")
    func noEmptySuggestions() {
        for typo in ["KC_FOO", "KC_NOO", "KC_TRANSP", "XXXXXX"] {
            do {
                _ = try KeyAction(parsing: typo)
                Issue.record("\(typo) parsed")
            } catch {
                #expect(!error.description.contains("'KC_NO'") && !error.description.contains("'KC_TRNS'"), "\(error)")
            }
        }
    }
}
