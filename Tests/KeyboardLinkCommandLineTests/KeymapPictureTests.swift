import KeyboardLinkClient
import Testing

@testable import KeyboardLinkCommandLine

/// The terminal picture of `kblink keymap show`: boxes at physical places with shared borders and the right
/// junctions, short labels, zone tags or colours, change marks.
@Suite("Keymap pictures")
struct KeymapPictureTests {
    static func key(
        _ name: String, _ zone: String = "standard", x: Double, y: Double, w: Double = 1, h: Double = 1,
        action: String? = nil, changed: Bool = false
    ) -> KeymapPicture.Key {
        KeymapPicture.Key(
            info: KeymapKeyInfo(key: name, zone: zone, x: x, y: y, width: w, height: h), action: action ?? "KC_" + name,
            changed: changed)
    }

    @Test("neighbouring keys share borders; a tall key meets its neighbours' rows with ├ and ┤")
    func junctions() {
        let picture = KeymapPicture(
            keys: [
                Self.key("A", x: 0, y: 0), Self.key("B", x: 1, y: 0), Self.key("C", x: 0, y: 1),
                Self.key("D", x: 1, y: 1), Self.key("ENT", x: 2, y: 0, h: 2),
            ], columnsPerUnit: 4)
        #expect(
            Array(picture.render().prefix(5)) == [
                "┌───┬───┬───┐",
                "│ A │ B │   │",
                "├───┼───┤ENT│",
                "│ C │ D │   │",
                "└───┴───┴───┘",
            ])
    }

    @Test("plain ASCII uses + - | only, and tags the zones in the top edges")
    func ascii() {
        let picture = KeymapPicture(
            keys: [
                Self.key("ESC", "function", x: 0, y: 0), Self.key("F1", "function", x: 1.5, y: 0, action: "KC_TRNS"),
                Self.key("SPACE", x: 0, y: 1.5, w: 2.5), Self.key("KP_1", "number", x: 3, y: 1.5, action: "KC_NO"),
            ], ascii: true, columnsPerUnit: 4)
        let lines = picture.render()
        #expect(
            Array(lines.prefix(6)) == [
                "+f--+ +f--+",
                "|ESC| |tr.|",
                "+---+ +---+",
                "+---------+ +#--+",
                "|  SPACE  | |no |",
                "+---------+ +---+",
            ])
        #expect(
            lines.dropFirst(6).first == "Zones: # number, f function, untagged standard (tag in the key's top edge)")
        #expect(lines.joined().utf8.allSatisfy { $0 < 0x80 })
    }

    @Test("changed keys are marked; colours replace the zone tags on a terminal")
    func changesAndColours() {
        let keys = [
            Self.key("CAPS", x: 0, y: 0, w: 2, action: "KC_LCTL", changed: true),
            Self.key("UP", "navigation", x: 3, y: 0),
        ]
        let plain = KeymapPicture(keys: keys, columnsPerUnit: 6).render()
        #expect(plain[1] == "│   *LCTL   │     │ UP  │")
        #expect(plain[0] == "┌───────────┐     ┌n────┐")
        #expect(plain.last?.hasPrefix("* changed in the draft (1 key)") == true)
        let colour = KeymapPicture(keys: keys, usesColor: true, columnsPerUnit: 6).render()
        #expect(colour[1].contains("\u{1B}[1;33m*LCTL\u{1B}[0m"))
        #expect(colour[0].contains("\u{1B}[36m┌─────┐\u{1B}[0m"), "navigation keys in cyan, without a tag")
        #expect(colour.contains { $0.contains("Zones: standard  \u{1B}[36mnavigation\u{1B}[0m") })
    }

    @Test("keys without a label are drawn empty (other zones under --zone)")
    func emptyKeys() {
        let picture = KeymapPicture(
            keys: [
                KeymapPicture.Key(
                    info: KeymapKeyInfo(key: "A", zone: "standard", x: 0, y: 0, width: 1, height: 1), action: nil,
                    changed: false)
            ],
            columnsPerUnit: 4)
        #expect(Array(picture.render().prefix(3)) == ["┌───┐", "│   │", "└───┘"])
    }

    @Test(
        "labels leave out KC_ and use symbols for transparent and nothing",
        arguments: [
            ("KC_A", "A", "A"), ("KC_TRNS", "▽", "trns"), ("KC_NO", "✕", "no"), ("LSFT(KC_1)", "LSFT(1)", "LSFT(1)"),
            ("MACRO(sig)", "M(sig)", "M(sig)"), ("LT(3, KC_SPC)", "LT(3, SPC)", "LT(3, SPC)"),
            ("MO(1)", "MO(1)", "MO(1)"),
        ])
    func labels(action: String, unicode: String, ascii: String) {
        #expect(KeymapPicture.label(forAction: action, ascii: false) == unicode)
        #expect(KeymapPicture.label(forAction: action, ascii: true) == ascii)
    }

    @Test("long labels are cut with a mark; the scale fits the terminal")
    func fitting() {
        #expect(KeymapPicture.fit("LT(3, SPC)", width: 5, ascii: false) == "LT(3…")
        #expect(KeymapPicture.fit("LT(3, SPC)", width: 5, ascii: true) == "LT(3.")
        #expect(KeymapPicture.fit("A", width: 5, ascii: true) == "A")
        let tkl = [
            KeymapKeyInfo(key: "ESC", zone: "function", x: 0, y: 0, width: 1, height: 1),
            KeymapKeyInfo(key: "RIGHT", zone: "navigation", x: 17.25, y: 5.5, width: 1, height: 1),
        ]
        #expect(KeymapPicture.columnsPerUnit(fitting: tkl, into: 120) == 6)
        #expect(KeymapPicture.columnsPerUnit(fitting: tkl, into: 80) == 4)
        #expect(KeymapPicture.columnsPerUnit(fitting: tkl, into: 300) == 7)
    }
}
