import KeyboardLinkKeymap
import Testing

@testable import KeyboardLinkKeymapFiles

@Suite("Keymap files: ZMK .keymap, QMK keymap.json, Vial .vil, keymap-drawer YAML")
struct KeymapFilesTests {
    @Test(
        "every readable format reads back what it wrote, on both demo keyboards' layouts",
        arguments: [KeymapFileFormat.zmk, .qmk, .vil], ["aula-f87", "vgn-98pro"])
    func roundTrip(format: KeymapFileFormat, layoutID: String) throws {
        let (layout, keymap) = try KeymapFileFixtures.richKeymap(layoutID)
        let text = try KeymapFiles.write(KeymapFileContent(keymap), as: format, layout: layout, keyboard: "Test")
        #expect(KeymapFileFormat.guess(from: text[...]) == format)
        let read = try KeymapFiles.read(
            text, as: format, layout: layout, macroNames: keymap.macros.keys.sorted())
        #expect(read.layers == keymap.layers)
        #expect(read.macros == keymap.macros)
        // And the import kblinkd runs accepts it as it is.
        #expect(try read.keymap.validated(for: layout) == keymap)
    }

    @Test(
        "a hand-written ZMK keymap: #define layer names, LC(C), LS(LA(TAB)), &mt, &lt, &tog, &to, &trans, &none, a macro"
    )
    func handWrittenZMK() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        let content = try KeymapFiles.read(KeymapFileFixtures.handWrittenZMK, as: .zmk, layout: layout)
        #expect(content.layers.count == 2)
        #expect(content.layerNames == ["Base", "Nav"])
        func action(_ layer: Int, _ key: String) throws -> KeyAction? {
            content.layers[layer][try KeyName(key)]
        }
        #expect(try action(0, "ESC") == KeyAction(parsing: "KC_ESC"))
        #expect(try action(0, "CAPS") == KeyAction(parsing: "LSFT_T(KC_A)"))
        #expect(try action(0, "C") == KeyAction(parsing: "LCTL(KC_C)"))
        #expect(try action(0, "SPACE") == KeyAction(parsing: "LT(1, KC_SPC)"))
        #expect(try action(0, "FN") == KeyAction(parsing: "MO(1)"))
        #expect(try action(1, "H") == KeyAction(parsing: "KC_LEFT"))
        #expect(try action(1, "FN") == KeyAction(parsing: "TG(0)"))
        #expect(try action(1, "APP") == .macro(try MacroName("hello")))
        #expect(try action(1, "RCTL") == KeyAction.none)
        #expect(try action(1, "LEFT") == KeyAction(parsing: "TO(0)"))
        #expect(try action(1, "RIGHT") == KeyAction(parsing: "LSFT(LALT(KC_TAB))"))
        #expect(try action(1, "ESC") == .transparent)
        #expect(
            content.macros[try MacroName("hello")] == (try Macro(parsing: "press shift, h, release shift, text 'i!'")))
        // Every key of both layers is bound: the import leaves nothing to chance.
        #expect(content.layers.allSatisfy { $0.count == layout.keys.count })
    }

    /// Broken or unrepresentable ZMK files: each replaces `marker` in the hand-written file; the refusal names the
    /// line where the replacement is and says why.
    @Test(
        "ZMK constructs kblink cannot represent, and broken files, are refused with their line",
        arguments: [
            ("&kp LS(LA(TAB))", "&sl NAV", "sticky layer"),
            ("&kp LS(LA(TAB))", "&sk LSHIFT", "sticky key"),
            ("&kp LS(LA(TAB))", "&kt LCTRL", "key toggle"),
            ("&kp LS(LA(TAB))", "&bt BT_SEL 0", "Bluetooth"),
            ("&kp LS(LA(TAB))", "&out OUT_USB", "output selection"),
            ("&kp LS(LA(TAB))", "&caps_word", "caps word"),
            ("&kp LS(LA(TAB))", "&undefined_thing", "neither a behaviour kblink knows"),
            ("&kp LS(LA(TAB))", "&mo 5", "the file has layers 0 to 1"),
            ("&kp LS(LA(TAB))", "&kp NOT_A_KEY", "unknown key code"),
            ("&kp LS(LA(TAB))", "&mt A B", "holds a modifier"),
            ("&kp LS(LA(TAB))", "&tog \"KC_A\"0", "not strings"),
            ("&kp LS(LA(TAB))", "", "has 86 bindings"),
            ("&kp LS(LA(TAB))", "&trans &trans", "has 88 bindings"),
            ("#define NAV  1", "#define NAV(x) 1", "function-like #define"),
            ("#define NAV  1", "#ifdef NAV", "#ifdef is not supported"),
            ("#binding-cells = <0>;", "#binding-cells = <0>; wait-ms = <30>;", "wait-ms"),
            ("<&macro_tap &kp I &kp EXCL>", "<&macro_pause_for_release>", "in a macro"),
            ("<&macro_tap &kp I &kp EXCL>", "<&macro_press &kp LC(A)>", "press the modifiers as keys"),
            (
                "display-name = \"Nav\";", "display-name = \"Nav\"; sensor-bindings = <&inc_dec_kp A B>;",
                "sensor-bindings"
            ),
            ("display-name = \"Nav\";", "display-name = \"Nav;", "not closed"),
            ("macros {", "combos { compatible = \"zmk,combos\"; }; macros {", "combos"),
            ("macros {", "/* a comment that never ends", "comment is not closed"),
            ("&kp PSCRN", "&kp PSCRN }", "inside the value"),
        ])
    func zmkRefusals(marker: String, replacement: String, reason: String) throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        let text = KeymapFileFixtures.handWrittenZMK.replacing(marker, with: replacement, maxReplacements: 1)
        let line = KeymapFileFixtures.line(of: marker, in: KeymapFileFixtures.handWrittenZMK)
        #expect(text != KeymapFileFixtures.handWrittenZMK)
        let error = try #require(throws: KeymapFileError.self) {
            try KeymapFiles.read(text, as: .zmk, layout: layout)
        }
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.line == line || replacement.isEmpty || reason == "comment is not closed", "\(error)")
        #expect(error.line >= 1 && error.column >= 1, "\(error)")
    }

    @Test("a refusal quoting a huge or control-laden name from the file stays one short line")
    func refusalsStayShort() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        let name = String(repeating: "x", count: 3_000)
        let text = KeymapFileFixtures.handWrittenZMK.replacing(
            "display-name = \"Nav\";", with: "display-name = \"Nav\"; \(name) = <1>;", maxReplacements: 1)
        let error = try #require(throws: KeymapFileError.self) {
            try KeymapFiles.read(text, as: .zmk, layout: layout)
        }
        #expect(error.reason.hasPrefix("layer property xxx"), "\(error)")
        #expect(error.reason.count == KeymapFileError.maximumReasonLength + 1 && error.reason.hasSuffix("…"))
        let escape = KeymapFileError(line: 1, column: 1, "name \u{1B}[2J\u{9B}31m\n")
        #expect(escape.reason == "name ?[2J?31m?")
    }

    @Test("QMK keymap.json: a bad keycode, a layer of the wrong size and an undefined macro are refused by line")
    func qmkRefusals() throws {
        let (layout, keymap) = try KeymapFileFixtures.richKeymap("aula-f87")
        let text = try KeymapFiles.write(KeymapFileContent(keymap), as: .qmk, layout: layout, keyboard: "Test")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let firstLayer = try #require(lines.firstIndex { $0.contains("\"KC_ESC\"") })
        func refusal(_ edited: String) throws -> KeymapFileError {
            try #require(throws: KeymapFileError.self) {
                try KeymapFiles.read(edited, as: .qmk, layout: layout, macroNames: keymap.macros.keys.sorted())
            }
        }
        let badKey = try refusal(text.replacing("\"KC_ESC\"", with: "\"KC_ESCC\"", maxReplacements: 1))
        #expect(badKey.line == firstLayer + 1 && badKey.reason.contains("layer 0, key ESC"), "\(badKey)")
        #expect(
            badKey.column
                == lines[firstLayer].firstRange(of: "\"KC_ESC\"").map {
                    lines[firstLayer].distance(from: lines[firstLayer].startIndex, to: $0.lowerBound) + 1
                })
        let short = try refusal(text.replacing("\"KC_ESC\", ", with: "", maxReplacements: 1))
        #expect(short.reason.contains("has 86 keys"), "\(short)")
        let macro = try refusal(text.replacing("\"KC_ESC\"", with: "\"QK_MACRO_9\"", maxReplacements: 1))
        #expect(macro.reason.contains("does not define"), "\(macro)")
        let syntax = try refusal(String(text.dropLast(3)))
        #expect(syntax.reason.contains("not closed") || syntax.reason.contains("expected"), "\(syntax)")
    }

    @Test("Vial .vil: keys by matrix position, -1 where the matrix has none; tap dances refused")
    func vialShape() throws {
        let (layout, keymap) = try KeymapFileFixtures.richKeymap("aula-f87")
        let text = try KeymapFiles.write(KeymapFileContent(keymap), as: .vil, layout: layout, keyboard: "Test")
        #expect(text.hasPrefix("{\"version\": 1, \"uid\": 0, \"layout\": [[[\"KC_ESC\", \"KC_F1\", \"KC_F2\""))
        #expect(text.contains("\"LT2(KC_SPC)\""))
        #expect(text.contains("\"vial_protocol\": 6"))
        let tapDance = text.replacing(
            "\"tap_dance\": []", with: "\"tap_dance\": [[\"KC_A\", \"KC_B\", \"KC_NO\", \"KC_NO\", 200]]")
        let error = try #require(throws: KeymapFileError.self) {
            try KeymapFiles.read(tapDance, as: .vil, layout: layout, macroNames: keymap.macros.keys.sorted())
        }
        #expect(error.reason.contains("tap dance") && error.line == 1, "\(error)")
        // Older files hold numbers: 4 is KC_A.
        let numeric = text.replacing("\"KC_ESC\"", with: "4", maxReplacements: 1)
        let read = try KeymapFiles.read(numeric, as: .vil, layout: layout, macroNames: keymap.macros.keys.sorted())
        #expect(read.layers[0][try KeyName("ESC")] == (try KeyAction(parsing: "KC_A")))
    }

    @Test("a ZMK export builds: includes, macros as zmk,behavior-macro nodes, display-name, rows aligned")
    func zmkShape() throws {
        let (layout, keymap) = try KeymapFileFixtures.richKeymap("aula-f87")
        let text = try KeymapFiles.write(
            KeymapFileContent(keymap, layerNames: ["Base", "Fn"]), as: .zmk, layout: layout, keyboard: "Aula F87")
        #expect(text.contains("#include <behaviors.dtsi>\n#include <dt-bindings/zmk/keys.h>\n"))
        #expect(text.contains("        sig: sig {\n            compatible = \"zmk,behavior-macro\";\n"))
        #expect(text.contains("display-name = \"Base\";") && text.contains("display-name = \"Fn\";"))
        #expect(text.contains("display-name = \"Layer 2\";"))
        #expect(text.contains("&mt LCTRL ESC") && text.contains("&lt 2 SPACE") && text.contains("&kp LS(LA(TAB))"))
        // One line per row of keys: the AULA F87 has six.
        let base = try #require(text.firstRange(of: "bindings = <\n"))
        let rows = text[base.upperBound...].prefix { $0 != ">" }.split(separator: "\n")
            .filter { $0.contains("&") }
        #expect(rows.count == 6)
        #expect(rows.first?.hasPrefix("                &kp ESC") == true)
    }

    @Test("what a format cannot hold is refused on export, naming the key")
    func exportRefusals() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        var keymap = Keymap(defaultsFor: layout)
        keymap.setAction(.qmkKeycode(0x7C00), layer: 0, key: try KeyName("ESC"))
        let zmk = try #require(throws: KeymapFileError.self) {
            try KeymapFiles.write(KeymapFileContent(keymap), as: .zmk, layout: layout, keyboard: "T")
        }
        #expect(zmk.reason.contains("key ESC"))
        var mixed = Keymap(defaultsFor: layout)
        mixed.setAction(
            .key(KeyPress(.keyboard(0x04), modifiers: [.leftShift, .rightAlt])), layer: 0, key: try KeyName("A"))
        let qmk = try #require(throws: KeymapFileError.self) {
            try KeymapFiles.write(KeymapFileContent(mixed), as: .qmk, layout: layout, keyboard: "T")
        }
        #expect(qmk.reason.contains("key A"))
    }

    @Test("keymap-drawer YAML: a list per row, hold-taps as {t, h}, transparent keys typed")
    func keymapDrawerShape() throws {
        let (layout, keymap) = try KeymapFileFixtures.richKeymap("aula-f87")
        let text = try KeymapFiles.write(
            KeymapFileContent(keymap), as: .keymapDrawer, layout: layout, keyboard: "Aula F87",
            layoutFile: "aula.info.json")
        #expect(text.contains("layout: {qmk_info_json: 'aula.info.json'}\nlayers:\n  'layer_0':\n    - ['ESC', "))
        #expect(text.contains("{t: 'ESC', h: 'Ctrl'}") && text.contains("{t: 'SPACE', h: 'layer_2'}"))
        #expect(text.contains("{t: '▽', type: trans}"))
        #expect(throws: KeymapFileError.self) { try KeymapFiles.read(text, as: .keymapDrawer, layout: layout) }
        let info = KeymapFiles.physicalLayoutJSON(layout)
        #expect(info.contains("{\"label\": \"ESC\", \"matrix\": [0, 0], \"x\": 0, \"y\": 0, \"w\": 1, \"h\": 1}"))
    }
}
