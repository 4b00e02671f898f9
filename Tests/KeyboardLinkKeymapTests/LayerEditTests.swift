import Testing

@testable import KeyboardLinkKeymap

@Suite("Layer names, moves and copies")
struct LayerEditTests {
    static func session() throws -> KeymapEditSession {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        var base = Keymap(defaultsFor: layout)
        // The Aula's FN key switches to layer 1 by default; these tests choose their own switches.
        base.setAction(.none, layer: 0, key: try KeyName("FN"))
        return try KeymapEditSession(layout: layout, base: base)
    }

    static func key(_ name: String) throws -> KeyName { try KeyName(name) }
    static func action(_ text: String) throws -> KeyAction { try KeyAction(parsing: text) }

    @Test("a layer name is 1 to 64 bytes of UTF-8 without control or format characters or outer spaces")
    func names() throws {
        #expect(try LayerName("Nav").rawValue == "Nav")
        #expect(try LayerName("Símbolos ⌘").rawValue == "Símbolos ⌘")
        #expect(try LayerName.optional("") == nil)
        for hostile in [
            "", String(repeating: "x", count: 65), "a\nb", "a\u{1B}[31m", "bidi\u{202E}", "nul\u{0}", " Nav", "Nav\t",
        ] {
            #expect(throws: KeymapError.self, "\(hostile.debugDescription)") { try LayerName(hostile) }
        }
        #expect(LayerName(validatingUTF8: [0x4E, 0x61, 0x76]) == (try LayerName("Nav")))
        #expect(LayerName(validatingUTF8: [0x4E, 0xC3, 0x28]) == nil)
        #expect(LayerName(validatingUTF8: []) == nil)
    }

    @Test("move renumbers every layer switch, QMK's DF, OSL, TT and LM kept verbatim too; one undo takes it back")
    func moveRenumbers() throws {
        var session = try Self.session()
        let before = session.draftKeymap
        // 0x5242 DF(2), 0x5281 OSL(1), 0x52C3 TT(3), 0x5062 LM(3, MOD_LSFT)
        let bindings: [(String, String)] = [
            ("CAPS", "MO(1)"), ("TAB", "LT(2, KC_TAB)"), ("F1", "TG(3)"), ("F2", "TO(1)"), ("F3", "QMK(0x5242)"),
            ("F4", "QMK(0x5281)"), ("F5", "QMK(0x52C3)"), ("F6", "QMK(0x5062)"),
        ]
        for (key, action) in bindings {
            try session.setBinding(key: try Self.key(key), action: try Self.action(action), layer: 0)
        }
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_B"), layer: 1)
        try session.renameLayer(1, to: try LayerName("Nav"))
        let edited = session.draftKeymap
        // Layer 1 goes to 3: layers 2 and 3 move down to 1 and 2.
        #expect(try session.moveLayer(from: 1, to: 3))
        let expected: [String: String] = [
            "CAPS": "MO(3)", "TAB": "LT(1, KC_TAB)", "F1": "TG(2)", "F2": "TO(3)", "F3": "QMK(0x5241)",
            "F4": "QMK(0x5283)", "F5": "QMK(0x52C2)", "F6": "QMK(0x5042)",
        ]
        for (key, action) in expected {
            #expect(try session.action(layer: 0, key: try Self.key(key)).description == action, "\(key)")
        }
        #expect(try session.action(layer: 3, key: try Self.key("A")) == (try Self.action("KC_B")))
        #expect(try session.action(layer: 1, key: try Self.key("A")) == .transparent)
        #expect(session.layerNames == ["", "", "", "Nav"])
        try session.undo()
        #expect(session.draftKeymap == edited)
        try session.redo()
        try session.moveLayer(from: 3, to: 1)
        #expect(session.draftKeymap == edited)
        #expect(session.draftKeymap != before)
    }

    @Test("remove refuses a layer QMK's OSL still switches to, and renumbers DF above it")
    func removeSeesVerbatimSwitches() throws {
        var session = try Self.session()
        try session.setBinding(key: try Self.key("F4"), action: try Self.action("QMK(0x5282)"), layer: 0)
        try session.setBinding(key: try Self.key("F3"), action: try Self.action("QMK(0x5243)"), layer: 0)
        #expect(throws: KeymapError.self) { try session.removeLayer(2) }
        try session.removeLayer(1)
        #expect(try session.action(layer: 0, key: try Self.key("F4")).description == "QMK(0x5281)")
        #expect(try session.action(layer: 0, key: try Self.key("F3")).description == "QMK(0x5242)")
    }

    @Test("copy puts one layer's bindings onto another and keeps the target's name; refused onto itself")
    func copy() throws {
        var session = try Self.session()
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_Z"), layer: 1)
        try session.renameLayer(2, to: try LayerName("Target"))
        try session.copyLayer(from: 1, to: 2)
        #expect(try session.action(layer: 2, key: try Self.key("A")).description == "KC_Z")
        #expect(session.layerName(2)?.rawValue == "Target")
        #expect(throws: KeymapError.self) { try session.copyLayer(from: 1, to: 1) }
        try session.undo()
        #expect(try session.action(layer: 2, key: try Self.key("A")) == .transparent)
    }

    @Test("names follow add and remove, make the draft dirty, and a push's base keeps them")
    func namesFollowLayers() throws {
        var session = try Self.session()
        try session.renameLayer(2, to: try LayerName("Fn"))
        #expect(session.isDirty)
        try session.addLayer(1)
        #expect(session.layerNames == ["", "", "", "Fn", ""])
        try session.removeLayer(2)
        #expect(session.layerNames == ["", "", "Fn", ""])
        try session.renameLayer(2, to: nil)
        try session.renameLayer(0, to: try LayerName("Base"))
        session.markPushed()
        try session.renameLayer(0, to: try LayerName("Other"))
        session.discard()
        #expect(session.layerNames == ["Base", "", "", ""] && !session.isDirty)
        #expect(!session.isDirty)
        #expect(session.base.layerName(0)?.rawValue == "Base")
        #expect(throws: KeymapError.self) { try session.renameLayer(9, to: try LayerName("x")) }
    }

    @Test("a stored profile keeps names and layer edits; one of an older kblink without names loads")
    func stored() throws {
        var session = try Self.session()
        try session.renameLayer(1, to: try LayerName("Nav"))
        try session.moveLayer(from: 1, to: 2)
        try session.copyLayer(from: 0, to: 3)
        try session.renameLayer(2, to: nil)
        try session.undo()
        let address = try KeyboardAddress("AA:BB:CC:DD:EE:01")
        let stored = StoredProfile(address: address, session: session)
        let json = stored.json()
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"renameLayer\"") && text.contains("\"moveLayer\"") && text.contains("\"copyLayer\""))
        let read = try StoredProfile(json: json)
        #expect(read == stored)
        let restored = try read.session(layout: session.layout)
        #expect(restored.draftKeymap == session.draftKeymap)
        #expect(restored.layerNames == ["", "", "Nav", ""])

        var named = session
        named.markPushed()
        let base = String(decoding: StoredProfile(address: address, session: named).json(), as: UTF8.self)
        #expect(base.contains("\"layerNames\""))
        let old = base.replacing("\"Nav\"", with: "\"\"")
        #expect(try StoredProfile(json: Array(old.utf8)).base.layerNames.isEmpty)
        let hostile = base.replacing("\"Nav\"", with: "\"a\\u001b[2J\"")
        #expect(throws: KeymapError.self) { try StoredProfile(json: Array(hostile.utf8)) }
    }

    @Test("an exported profile carries the names and a merging import sets them")
    func profileDocument() throws {
        var session = try Self.session()
        try session.renameLayer(1, to: try LayerName("Nav"))
        let text = session.exportProfileJSON()
        #expect(text.contains("\"layerNames\""))
        var other = try Self.session()
        try other.importProfile(json: text)
        #expect(other.layerNames == ["", "Nav", "", ""])
        try other.undo()
        #expect(other.layerNames == ["", "", "", ""])
    }
}
