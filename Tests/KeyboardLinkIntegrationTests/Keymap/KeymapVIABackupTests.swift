import KeyboardLink
import Testing

@Suite("ImportProfile takes a VIA keymap backup")
struct KeymapVIABackupTests {
    @Test("a VIA backup sent over D-Bus lands in the draft as the bindings it names")
    func importOverDBus() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                let layout = try PhysicalLayout.builtIn("aula-f87")
                let text = try VIAKeymapBackupTestData.backup(layout, [(0, "A", "KC_B"), (0, "CAPS", "KC_LCTL")])
                try await keymap.importProfile(text)
                let bindings = Dictionary(
                    uniqueKeysWithValues: try await keymap.bindings(zone: "standard", layer: 0).map {
                        ($0.key, $0.action)
                    })
                #expect(bindings["A"] == "KC_B")
                #expect(bindings["CAPS"] == "KC_LCTL")
                #expect(bindings["Q"] == "KC_NO")
            }
        }
    }
}

/// Builds VIA backups for the integration tests (every matrix position `KC_NO` but the given ones).
enum VIAKeymapBackupTestData {
    static func backup(_ layout: PhysicalLayout, _ entries: [(layer: Int, key: String, code: String)]) throws -> String
    {
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        var layers = Array(repeating: Array(repeating: "KC_NO", count: rows * columns), count: 2)
        for entry in entries {
            let key = try layout.key(named: entry.key)
            layers[entry.layer][key.matrix.row * columns + key.matrix.column] = entry.code
        }
        let layerText = layers.map { "[" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]" }.joined(separator: ",")
        return "{\"name\":\"Aula F87\",\"vendorProductId\":2359820,\"layers\":[\(layerText)]}"
    }
}
