import KeyboardLinkKeymap
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymapFiles

@Suite("VIA keyboard definitions (v2 and v3) read into layouts; broken ones refused by line and column")
struct VIADefinitionTests {
    static func read(_ text: String, options: [Int] = []) throws(KeymapFileError) -> VIADefinition {
        try VIADefinition(json: Array(text.utf8), options: options)
    }

    @Test("a v3 definition from the-via/keyboards: IDs, matrix, and keys named by place on the ANSI 60% shape")
    func version3() throws {
        let definition = try Self.read(VIADefinitionFixtureText.oneUp60HSE)
        #expect(definition.name == "1up60hse" && definition.version == .v3)
        #expect(definition.vendorID == 0x6F75 && definition.productID == 0x6873)
        #expect(definition.matrixRows == 5 && definition.matrixColumns == 14)
        #expect(definition.optionGroups.isEmpty)
        let layout = definition.layout
        #expect(layout.id.rawValue == "1up60hse" && layout.keys.count == 61)
        let ansi60 = try PhysicalLayout.builtIn("ansi-60")
        #expect(Set(layout.keys.map(\.name)) == Set(ansi60.keys.map(\.name)))
        #expect(layout.key(exactly: try KeyName("ESC"))?.matrix == MatrixPosition(row: 0, column: 0))
        #expect(layout.key(exactly: try KeyName("BSPC"))?.matrix == MatrixPosition(row: 0, column: 13))
        let space = try #require(layout.key(exactly: try KeyName("SPACE")))
        #expect(space.matrix == MatrixPosition(row: 4, column: 5) && space.frame.width == 6.25)
        #expect(layout.key(exactly: try KeyName("RCTL"))?.matrix == MatrixPosition(row: 4, column: 13))
        #expect(layout.key(exactly: try KeyName("Q"))?.defaultAction == (try KeyAction(parsing: "KC_Q")))
    }

    @Test("a v2 definition from the-via/keyboards: layout options, the first of each group unless chosen")
    func version2Options() throws {
        let definition = try Self.read(VIADefinitionFixtureText.sweet16V1)
        #expect(definition.name == "sweet16 v1" && definition.version == .v2)
        #expect(definition.vendorID == 0x6F75 && definition.productID == 0x0161)
        #expect(definition.layout.id.rawValue == "sweet16-v1")
        #expect(definition.optionGroups.map(\.name) == ["2u Top Right", "2u Bottom Left", "2u Bottom Right"])
        #expect(definition.optionGroups.allSatisfy { $0.choices == ["off", "on"] && $0.chosen == 0 })
        let flat = definition.layout
        #expect(flat.keys.count == 16)
        // No built-in layout has this shape: every key is named by its matrix position, starting at (0, 0).
        #expect(flat.keys.first?.name.rawValue == "R0C0" && flat.keys.first?.frame.x == 0)
        #expect(flat.key(exactly: try KeyName("R0C3"))?.frame == KeyFrame(x: 3, y: 0, width: 1, height: 1))

        let chosen = try Self.read(VIADefinitionFixtureText.sweet16V1, options: [1, 1])
        #expect(chosen.optionGroups.map(\.chosen) == [1, 1, 0])
        #expect(chosen.layout.keys.count == 14)
        // The tall key of option 1 sits where option 0's keys were.
        #expect(chosen.layout.key(exactly: try KeyName("R0C3"))?.frame == KeyFrame(x: 3, y: 0, width: 1, height: 2))
        #expect(chosen.layout.key(exactly: try KeyName("R1C3")) == nil)
        #expect(chosen.layout.key(exactly: try KeyName("R3C1"))?.frame == KeyFrame(x: 0, y: 3, width: 2, height: 1))
        #expect(chosen.layout.key(exactly: try KeyName("R3C0")) == nil)
        #expect(throws: KeymapFileError.self) { try Self.read(VIADefinitionFixtureText.sweet16V1, options: [2]) }
        #expect(throws: KeymapFileError.self) {
            try Self.read(VIADefinitionFixtureText.sweet16V1, options: [0, 0, 0, 0])
        }
    }

    @Test("a hand-written v3 definition: named options, KLE alignment, decals, an encoder, a metadata row")
    func handWritten() throws {
        let text = """
            {"name": "Pad: 6 keys", "vendorId": "0xfeed", "productId": "0x1", "matrix": {"rows": 2, "cols": 3},
             "menus": [], "keycodes": [],
             "layouts": {"labels": [["Bottom", "Three 1u", "One 3u"]],
              "keymap": [{"name": "meta"},
                ["0,0", "0,1", "0,2", {"d": true}, "decal", "\\n\\n\\n\\n\\n\\n\\n\\n\\ne0"],
                [{"a": 4}, "1,0\\n\\n\\n0,0", "1,1\\n\\n\\n0,0", "1,2\\n\\n\\n0,0", {"x": 1, "w": 3},
                 "1,1\\n\\n\\n0,1"]
              ]}}
            """
        let definition = try Self.read(text)
        #expect(definition.layout.id.rawValue == "pad-6-keys" && definition.version == .v3)
        #expect(definition.vendorID == 0xFEED && definition.productID == 1)
        #expect(definition.optionGroups == [.init(name: "Bottom", choices: ["Three 1u", "One 3u"], chosen: 0)])
        #expect(definition.layout.keys.map(\.name.rawValue) == ["R0C0", "R0C1", "R0C2", "R1C0", "R1C1", "R1C2"])
        let wide = try Self.read(text, options: [1])
        #expect(wide.layout.keys.map(\.name.rawValue) == ["R0C0", "R0C1", "R0C2", "R1C1"])
        #expect(wide.layout.key(exactly: try KeyName("R1C1"))?.frame == KeyFrame(x: 0, y: 1, width: 3, height: 1))
    }

    /// A line of the v3 fixture changed, the line of the change, and what the refusal says.
    @Test(
        "broken definitions are refused at the line of what is wrong, saying why",
        arguments: [
            ("\"vendorId\": \"0x6F75\"", "\"vendorId\": \"6F75\"", "'vendorId' is a hex string"),
            ("\"productId\": \"0x6873\"", "\"productId\": 26739", "'productId' is a hex string"),
            ("\"productId\": \"0x6873\"", "\"productId\": \"0x16873\"", "'productId' is a hex string"),
            ("\"matrix\": {\"rows\": 5", "\"matrix\": {\"rows\": 0", "'rows' is a whole number from 1 to 64"),
            ("\"matrix\": {\"rows\": 5", "\"matrix\": {\"rows\": 500", "'rows' is a whole number from 1 to 64"),
            ("\"0,7\"", "\"Q\"", "has no matrix position"),
            ("\"0,7\"", "\"5,7\"", "matrix position 5,7 is outside the matrix of 5 rows and 14 columns"),
            ("\"0,7\"", "\"0,6\"", "matrix position 0,6 is also the key at line"),
            ("\"0,7\"", "{\"r\": 15}, \"0,7\"", "rotated keys ('r') are not supported"),
            ("\"0,7\"", "{\"w\": \"wide\"}, \"0,7\"", "'w' is a number from 0.25 to 100"),
            ("\"0,7\"", "\"0,7\\n\\n\\nleft\"", "the layout option 'left' is not 'group,option'"),
            ("\"0,7\"", "7", "holds key labels and property objects only"),
            ("\"name\": \"1up60hse\"", "\"name\": \"\"", "'name' is a string of 1 to 128 bytes"),
            ("\"0,7\"", "\"0,7\"]]]", "expected"),
        ])
    func refused(marker: String, replacement: String, reason: String) throws {
        let text = VIADefinitionFixtureText.oneUp60HSE.replacing(marker, with: replacement)
        #expect(text != VIADefinitionFixtureText.oneUp60HSE)
        // The marker is once in the file: the refusal is where it was.
        let line = VIADefinitionFixtureText.line(of: marker, in: VIADefinitionFixtureText.oneUp60HSE)
        let error = try #require(throws: KeymapFileError.self) { try Self.read(text) }
        #expect(error.reason.contains(reason), "\(error)")
        if reason != "expected" {
            #expect(error.line == line, "\(error)")
            #expect(error.column > 1, "\(error)")
        }
    }

    @Test("missing members are named; size and nesting are bounded")
    func limits() throws {
        let noMatrix = VIADefinitionFixtureText.oneUp60HSE.replacing("\"matrix\"", with: "\"matrices\"")
        let missing = try #require(throws: KeymapFileError.self) { try Self.read(noMatrix) }
        #expect(missing.reason == "'matrix' is missing" && missing.line == 1)
        let large = "{\"name\": \"" + String(repeating: "x", count: VIADefinition.maximumSize) + "\"}"
        let tooLarge = try #require(throws: KeymapFileError.self) { try Self.read(large) }
        #expect(tooLarge.reason.contains("at most 1 MiB"))
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let tooDeep = try #require(throws: KeymapFileError.self) { try Self.read(deep) }
        #expect(tooDeep.reason.contains("deep") || tooDeep.reason.contains("nest"), "\(tooDeep)")
        let notObject = try #require(throws: KeymapFileError.self) { try Self.read("[]") }
        #expect(notObject.reason == "a VIA definition is a JSON object")
        let manyKeys =
            "{\"name\": \"big\", \"vendorId\": \"0x1\", \"productId\": \"0x2\", \"matrix\": {\"rows\": 64, \"cols\": 64}, "
            + "\"layouts\": {\"keymap\": ["
            + (0..<64).map { row in "[" + (0..<64).map { "\"\(row),\($0)\"" }.joined(separator: ",") + "]" }
            .joined(separator: ",") + "]}}"
        let tooMany = try #require(throws: KeymapFileError.self) { try Self.read(manyKeys) }
        #expect(tooMany.reason.contains("more than 2048 keys"), "\(tooMany)")
    }
}
