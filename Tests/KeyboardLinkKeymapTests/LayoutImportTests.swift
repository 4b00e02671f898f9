import Testing

@testable import KeyboardLinkKeymap

@Suite("User layouts: JSON and KLE")
struct LayoutImportTests {
    /// KLE's "ANSI 104" preset as its JSON download (metadata object first, quoted property names).
    static let ansi104 = #"""
        [{"name": "ANSI 104", "author": "test"},
        ["Esc",{"x":1},"F1","F2","F3","F4",{"x":0.5},"F5","F6","F7","F8",{"x":0.5},"F9","F10","F11","F12",
         {"x":0.25},"PrtSc","Scroll Lock","Pause\nBreak"],
        [{"y":0.5},"~\n`","!\n1","@\n2","#\n3","$\n4","%\n5","^\n6","&\n7","*\n8","(\n9",")\n0","_\n-","+\n=",
         {"w":2},"Backspace",{"x":0.25},"Insert","Home","PgUp",{"x":0.25},"Num Lock","/","*","-"],
        [{"w":1.5},"Tab","Q","W","E","R","T","Y","U","I","O","P","{\n[","}\n]",{"w":1.5},"|\n\\",
         {"x":0.25},"Delete","End","PgDn",{"x":0.25},"7\nHome","8\n↑","9\nPgUp",{"h":2},"+"],
        [{"w":1.75},"Caps Lock","A","S","D","F","G","H","J","K","L",":\n;","\"\n'",{"w":2.25},"Enter",
         {"x":3.5},"4\n←","5","6\n→"],
        [{"w":2.25},"Shift","Z","X","C","V","B","N","M","<\n,",">\n.","?\n/",{"w":2.75},"Shift",
         {"x":1.25},"↑",{"x":1.25},"1\nEnd","2\n↓","3\nPgDn",{"h":2},"Enter"],
        [{"w":1.25},"Ctrl",{"w":1.25},"Win",{"w":1.25},"Alt",{"a":7,"w":6.25},"",{"a":4,"w":1.25},"Alt",
         {"w":1.25},"Win",{"w":1.25},"Menu",{"w":1.25},"Ctrl",{"x":0.25},"←","↓","→",
         {"x":0.25,"w":2},"0\nIns",".\nDel"]
        ]
        """#

    /// A 60% board in KLE's raw-data form: no outer brackets, unquoted property names.
    static let raw60 = #"""
        ["~\n`","!\n1","@\n2","#\n3","$\n4","%\n5","^\n6","&\n7","*\n8","(\n9",")\n0","_\n-","+\n=",{w:2},"Backspace"],
        [{w:1.5},"Tab","Q","W","E","R","T","Y","U","I","O","P","{\n[","}\n]",{w:1.5},"|\n\\"],
        [{w:1.75},"Caps Lock","A","S","D","F","G","H","J","K","L",":\n;","\"\n'",{w:2.25},"Enter"],
        [{w:2.25},"Shift","Z","X","C","V","B","N","M","<\n,",">\n.","?\n/",{w:2.75},"Shift"],
        [{w:1.25},"Ctrl",{w:1.25},"Win",{w:1.25},"Alt",{a:7,w:6.25},"",{a:4,w:1.25},"Alt",{w:1.25},"Win",
         {w:1.25},"Menu",{w:1.25},"Ctrl"]
        """#

    @Test("KLE's ANSI 104 preset imports to the same keys as the built-in full-ansi layout")
    func ansi104() throws {
        let imported = try PhysicalLayout(importingKLE: Self.ansi104, id: try LayoutID("kle-104"))
        let builtIn = try PhysicalLayout.builtIn("full-ansi")
        #expect(imported.name == "ANSI 104")
        #expect(imported.keys.count == 104)
        #expect(imported.keys.map(\.name) == builtIn.keys.map(\.name))
        #expect(imported.keys == builtIn.keys)
    }

    @Test("KLE raw data with unquoted properties imports, names from legends")
    func raw60() throws {
        let layout = try PhysicalLayout(importingKLE: Self.raw60, id: try LayoutID("kle-60"), name: "Sixty")
        #expect(layout.name == "Sixty")
        #expect(layout.keys.count == 61)
        #expect(layout.zones == [.standard])
        let names = layout.keys.map(\.name.rawValue)
        #expect(
            names.prefix(14) == ["GRAVE", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "MINUS", "EQUAL", "BSPC"])
        #expect(names.suffix(8) == ["LCTL", "LGUI", "LALT", "SPACE", "RALT", "RGUI", "APP", "RCTL"])
        let space = try layout.key(named: "SPACE")
        #expect(space.frame == KeyFrame(x: 3.75, y: 4, width: 6.25, height: 1))
        #expect(space.matrix == MatrixPosition(row: 4, column: 3))
        #expect(try layout.key(named: "RSFT").frame == KeyFrame(x: 12.25, y: 3, width: 2.75, height: 1))
    }

    @Test("VIA-style matrix legends give matrix positions; unknown legends give names")
    func matrixLegends() throws {
        let text = #"[["0,0\nEsc","0,1\nLight",{"w":2},"0,2"],[{"x":1},"1,5\nKnob"]]"#
        let layout = try PhysicalLayout(importingKLE: text, id: try LayoutID("via"))
        #expect(layout.keys.map(\.name.rawValue) == ["ESC", "LIGHT", "K2", "KNOB"])
        #expect(
            layout.keys.map(\.matrix) == [
                .init(row: 0, column: 0), .init(row: 0, column: 1),
                .init(row: 0, column: 2), .init(row: 1, column: 5),
            ])
        #expect(layout.keys[2].frame.width == 2)
        #expect(layout.keys[3].frame == KeyFrame(x: 1, y: 1))
    }

    @Test(
        "broken KLE data is refused with a reason",
        arguments: [
            "", "[", "[[\"A\"", "[[{x:}]]", "[[{r:15},\"A\"]]", "[[\"A\",{x:-1},\"B\"]]", "[[1]]", "{}",
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
            "[[{w:1e9},\"A\"]]",
        ])
    func brokenKLE(text: String) {
        #expect(throws: KeymapError.self) { try PhysicalLayout(importingKLE: text, id: try LayoutID("x")) }
    }

    @Test("JSON layouts round-trip and read defaults")
    func jsonRoundTrip() throws {
        for layout in PhysicalLayout.allBuiltIn() {
            #expect(try PhysicalLayout(json: layout.jsonData()) == layout)
        }
        let text = #"""
            {"id": "Pad", "keys": [
              {"name": "knob", "zone": "standard", "x": 0, "y": 0, "row": 0, "col": 0, "action": "KC_MUTE"},
              {"name": "FN", "zone": "standard", "x": 1, "y": 0, "w": 1.5, "row": 0, "col": 1},
              {"name": "KP_1", "zone": "number", "x": 0, "y": 1, "row": 1, "col": 0}
            ]}
            """#
        let layout = try PhysicalLayout(json: Array(text.utf8))
        #expect(layout.id.rawValue == "pad")
        #expect(layout.name == "Pad")
        #expect(layout.keys.map(\.defaultAction) == [.key(.consumer(0xE2)), .momentaryLayer(1), .key(.keyboard(0x59))])
        #expect(layout.zones == [.standard, .number])
    }

    @Test(
        "broken JSON layouts are refused naming the problem",
        arguments: [
            (#"{"id": "x"}"#, "invalid layout: not a layout JSON file: the document lacks 'keys'"),
            (
                #"{"id": "x", "keys": [{"name": "A", "zone": "standard", "x": "0", "y": 0, "row": 0, "col": 0}]}"#,
                "invalid layout: not a layout JSON file: keys[0].x should be a number"
            ),
            (
                #"{"id": "x", "keys": [{"name": "A", "zone": "top", "x": 0, "y": 0, "row": 0, "col": 0}]}"#,
                "invalid layout: key 0 (A): unknown zone 'top'; zones are standard, number, function and navigation"
            ),
            (
                #"{"id": "x", "keys": [{"name": "A", "zone": "standard", "x": 0, "y": 0, "row": 0, "col": 0, "#
                    + #""action": "KC_ESCC"}]}"#,
                "invalid layout: key 0 (A): unknown key code 'KC_ESCC'; did you mean 'KC_ESC'?"
            ),
            (
                #"{"id": "x y", "keys": [{"name": "A", "zone": "standard", "x": 0, "y": 0, "row": 0, "col": 0}]}"#,
                "invalid layout: 'x y' is not a layout id: use 1 to 64 of a-z 0-9 - _ ."
            ),
        ])
    func brokenJSON(text: String, message: String) {
        do {
            _ = try PhysicalLayout(json: Array(text.utf8))
            Issue.record("should fail")
        } catch {
            #expect(error.description == message)
        }
    }
}
