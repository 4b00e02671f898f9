import Testing

@testable import KeyboardLinkKeymap

@Suite("VIA keymap backups")
struct VIAKeymapBackupTests {
    /// A backup for `layout` with every matrix position `KC_NO` except the given ones, `layerCount` layers.
    static func backup(
        _ layout: PhysicalLayout, layerCount: Int = 2, _ entries: [(layer: Int, key: String, code: String)]
    ) throws -> String {
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        var layers = Array(repeating: Array(repeating: "KC_NO", count: rows * columns), count: layerCount)
        for entry in entries {
            let key = try layout.key(named: entry.key)
            layers[entry.layer][key.matrix.row * columns + key.matrix.column] = entry.code
        }
        let layerText = layers.map { "[" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]" }.joined(separator: ",")
        return "{\"name\":\"Aula F87\",\"vendorProductId\":2359820,\"macros\":[\"\"],\"layers\":[\(layerText)]}"
    }

    @Test("a backup imports to the bindings it names, through ImportProfile's text path, as one undoable edit")
    func importsBindings() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        let text = try Self.backup(
            layout,
            [
                (0, "A", "KC_B"), (0, "CAPS", "LCTL(KC_ESC)"), (0, "ESC", "0x0029"), (1, "F1", "KC_MUTE"),
                (1, "A", "MO(1)"), (1, "S", "KC_TRNS"),
            ])
        try session.importProfile(json: text)
        #expect(try session.action(layer: 0, key: KeyName("A")) == KeyAction(parsing: "KC_B"))
        #expect(try session.action(layer: 0, key: KeyName("CAPS")) == KeyAction(parsing: "LCTL(KC_ESC)"))
        #expect(try session.action(layer: 0, key: KeyName("ESC")) == KeyAction(parsing: "KC_ESC"))
        #expect(try session.action(layer: 0, key: KeyName("Q")) == KeyAction.none)
        #expect(try session.action(layer: 1, key: KeyName("F1")) == KeyAction(parsing: "KC_MUTE"))
        #expect(try session.action(layer: 1, key: KeyName("A")) == KeyAction(parsing: "MO(1)"))
        #expect(try session.action(layer: 1, key: KeyName("S")) == KeyAction.transparent)
        #expect(session.canUndo)
        try session.undo()
        #expect(try session.action(layer: 0, key: KeyName("A")) == KeyAction(parsing: "KC_A"))
    }

    @Test("a layer of the wrong size, a bad keycode and broken JSON are clear errors")
    func badBackups() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        #expect(throws: KeymapError.self) {
            try session.importVIABackup(json: Array("{\"layers\":[[\"KC_A\",\"KC_B\"]]}".utf8))
        }
        let bad = try Self.backup(layout, [(0, "A", "KC_FROBNICATE")])
        do {
            try session.importProfile(json: bad)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("layer 0"))
            #expect(error.description.contains("(A)"))
        }
        #expect(throws: KeymapError.self) { try session.importProfile(json: "{\"layers\": [[1, 2]]}") }
        #expect(!session.canUndo, "nothing was staged")
    }
}
