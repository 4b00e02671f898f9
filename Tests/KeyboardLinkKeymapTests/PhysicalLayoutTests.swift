import Testing

@testable import KeyboardLinkKeymap

@Suite("Built-in layouts")
struct PhysicalLayoutTests {
    /// (id, key count, keys per zone)
    static let expectations: [(String, Int, [ZoneID: Int])] = [
        ("aula-f87", 87, [.standard: 61, .function: 16, .navigation: 10]),
        ("tkl-ansi", 87, [.standard: 61, .function: 16, .navigation: 10]),
        ("full-ansi", 104, [.standard: 61, .function: 16, .navigation: 10, .number: 17]),
        ("vgn-98pro", 98, [.standard: 60, .function: 13, .navigation: 8, .number: 17]),
        ("ansi-60", 61, [.standard: 61]),
        ("ansi-75", 84, [.standard: 60, .function: 14, .navigation: 10]),
    ]

    @Test("key counts and zones", arguments: expectations)
    func counts(id: String, count: Int, zones: [ZoneID: Int]) throws {
        let layout = try PhysicalLayout.builtIn(id)
        #expect(layout.keys.count == count)
        var perZone: [ZoneID: Int] = [:]
        for key in layout.keys { perZone[key.zone, default: 0] += 1 }
        #expect(perZone == zones)
        #expect(layout.zones == ZoneID.allCases.filter { zones[$0] != nil })
    }

    @Test("no two keys overlap, share a name or share a matrix position", arguments: PhysicalLayout.builtInIDs)
    func geometry(id: String) throws {
        let keys = try PhysicalLayout.builtIn(id).keys
        for i in keys.indices {
            for j in keys.indices where j > i {
                let a = keys[i].frame
                let b = keys[j].frame
                let separate =
                    a.x + a.width <= b.x + 1e-9 || b.x + b.width <= a.x + 1e-9
                    || a.y + a.height <= b.y + 1e-9 || b.y + b.height <= a.y + 1e-9
                #expect(separate, "\(keys[i].name) and \(keys[j].name) overlap")
                #expect(keys[i].name != keys[j].name)
                #expect(keys[i].matrix != keys[j].matrix)
            }
        }
    }

    @Test("layer 0 says what the keycaps say", arguments: PhysicalLayout.builtInIDs)
    func defaults(id: String) throws {
        let layout = try PhysicalLayout.builtIn(id)
        for key in layout.keys {
            #expect(key.defaultAction != .none, "\(key.name) has no default")
        }
        let keymap = Keymap(defaultsFor: layout)
        #expect(keymap.layerCount == 4)
        #expect(keymap.action(layer: 0, key: try KeyName("A")) == .key(.keyboard(0x04)))
        #expect(keymap.action(layer: 0, key: try KeyName("SPACE")) == .key(.keyboard(0x2C)))
        #expect(keymap.action(layer: 2, key: try KeyName("A")) == .transparent)
        #expect(keymap.layers.allSatisfy { $0.count == layout.keys.count })
    }

    @Test("specific keys of the AULA F87 and the VGN 98Pro")
    func specificKeys() throws {
        let aula = try PhysicalLayout.builtIn("aula-f87")
        #expect(try aula.key(named: "FN").defaultAction == .momentaryLayer(1))
        #expect(try aula.key(named: "ESC").zone == .function)
        #expect(try aula.key(named: "PSCR").zone == .function)
        #expect(try aula.key(named: "UP").zone == .navigation)
        #expect(try aula.key(named: "SPACE").frame == KeyFrame(x: 3.75, y: 5.5, width: 6.25, height: 1))
        #expect(!aula.contains(try KeyName("RGUI")))
        let vgn = try PhysicalLayout.builtIn("vgn-98pro")
        #expect(try vgn.key(named: "KP_1").defaultAction == .key(.keyboard(0x59)))
        #expect(try vgn.key(named: "KP_PLUS").frame.height == 2)
        #expect(try vgn.key(named: "kp_enter").zone == .number)
    }

    @Test("unknown layouts, keys and zones give clear errors")
    func errors() throws {
        #expect(throws: KeymapError.unknownLayout("tkl-iso", available: PhysicalLayout.builtInIDs)) {
            try PhysicalLayout.builtIn("tkl-iso")
        }
        let layout = try PhysicalLayout.builtIn("tkl-ansi")
        #expect(throws: KeymapError.unknownKey("ESCC", layout: "tkl-ansi", suggestion: "ESC")) {
            try layout.key(named: "ESCC")
        }
        #expect(
            throws: KeymapError.zoneNotInLayout(
                zone: "number", layout: "tkl-ansi",
                available: ["standard", "function", "navigation"])
        ) {
            try layout.keys(in: .number)
        }
        #expect(throws: KeymapError.unknownZone("numbers")) { try ZoneID(parsing: "numbers") }
        #expect(try ZoneID(parsing: "Numpad") == .number)
    }

    @Test("a layout with overlapping or duplicate keys is refused")
    func invalidLayouts() throws {
        let id = try LayoutID("bad")
        let a = PhysicalKey(
            name: try KeyName("A"), zone: .standard, frame: KeyFrame(x: 0, y: 0), matrix: .init(row: 0, column: 0),
            defaultAction: .none)
        var b = a
        b.name = try KeyName("B")
        b.matrix = MatrixPosition(row: 0, column: 1)
        b.frame = KeyFrame(x: 0.5, y: 0.5)
        #expect(throws: KeymapError.invalidLayout("bad: keys A and B overlap")) {
            try PhysicalLayout(id: id, name: "bad", keys: [a, b])
        }
        b.frame = KeyFrame(x: 1, y: 0)
        _ = try PhysicalLayout(id: id, name: "touching is fine", keys: [a, b])
        b.name = a.name
        #expect(throws: KeymapError.invalidLayout("bad has two keys named A")) {
            try PhysicalLayout(id: id, name: "bad", keys: [a, b])
        }
        b.name = try KeyName("B")
        b.matrix = a.matrix
        #expect(throws: KeymapError.invalidLayout("bad: keys A and B share matrix position 0,0")) {
            try PhysicalLayout(id: id, name: "bad", keys: [a, b])
        }
        #expect(throws: KeymapError.self) { try PhysicalLayout(id: id, name: "empty", keys: []) }
    }
}
