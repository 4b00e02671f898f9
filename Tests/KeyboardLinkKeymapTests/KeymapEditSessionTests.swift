import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymap

@Suite("Edit session")
struct KeymapEditSessionTests {
    static func session(_ id: String = "full-ansi") throws -> KeymapEditSession {
        let layout = try PhysicalLayout.builtIn(id)
        return try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
    }

    static func key(_ name: String) throws -> KeyName { try KeyName(name) }
    static func action(_ text: String) throws -> KeyAction { try KeyAction(parsing: text) }

    @Test("switching zones keeps every zone's edits")
    func zoneSwitching() throws {
        var session = try Self.session()
        #expect(session.currentZone == .standard)
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_B"), layer: 0, zone: .standard)
        try session.selectZone(.number)
        try session.setBinding(key: try Self.key("KP_1"), action: try Self.action("KC_VOLU"), layer: 1, zone: .number)
        try session.selectZone(.function)
        try session.selectZone(.standard)
        #expect(session.draft(zone: .standard, layer: 0) == [try Self.key("A"): try Self.action("KC_B")])
        #expect(session.draft(zone: .number, layer: 1) == [try Self.key("KP_1"): try Self.action("KC_VOLU")])
        #expect(try session.action(layer: 1, key: try Self.key("KP_1")) == .key(.consumer(0xE9)))
        let bindings = try session.bindings(zone: .number, layer: 1)
        #expect(bindings.filter(\.isChanged).map(\.key) == [try Self.key("KP_1")])
        var tkl = try Self.session("tkl-ansi")
        #expect(throws: KeymapError.self) { try tkl.selectZone(.number) }
    }

    @Test("1,000 random zone switches between random edits keep exactly the applied edits")
    func randomZoneSwitching() throws {
        var session = try Self.session("vgn-98pro")
        var model = KeymapReferenceModel(session.base)
        var random = SeededRandom(seed: 1)
        let generator = KeymapEditGenerator(layout: session.layout, layerCount: session.layerCount)
        for _ in 0..<1_000 {
            try session.selectZone(session.zones.randomElement(using: &random) ?? .standard)
            let operation = generator.next(using: &random, macros: model.keymap.macros)
            let expected = model.applying(operation, layout: session.layout)
            do {
                try session.apply(operation)
                #expect(expected != nil, "the session accepted \(operation) which the model refuses")
            } catch {
                #expect(expected == nil, "the session refused \(operation): \(error)")
            }
            if let expected { model.keymap = expected }
            #expect(session.draftKeymap == model.keymap)
        }
        #expect(
            try KeymapEditSession.replay(
                Array(session.operationLog.applied), onto: session.base, layout: session.layout) == session.draftKeymap)
    }

    @Test("undo and redo over a long random log return to every earlier state exactly")
    func undoRedo() throws {
        var session = try Self.session()
        var random = SeededRandom(seed: 2)
        let generator = KeymapEditGenerator(layout: session.layout, layerCount: session.layerCount)
        var states = [session.draftKeymap]
        while states.count < 400 {
            let operation = generator.next(using: &random, macros: session.macros)
            if (try? session.apply(operation)) == true { states.append(session.draftKeymap) }
        }
        for state in states.reversed().dropFirst() {
            try session.undo()
            #expect(session.draftKeymap == state)
        }
        #expect(!session.canUndo && !session.isDirty)
        #expect(throws: KeymapError.nothingToUndo) { try session.undo() }
        for state in states.dropFirst() {
            try session.redo()
            #expect(session.draftKeymap == state)
        }
        #expect(!session.canRedo)
        #expect(throws: KeymapError.nothingToRedo) { try session.redo() }

        // Random walks back and forth land on the recorded states too.
        var position = states.count - 1
        for _ in 0..<2_000 {
            if Bool.random(using: &random), session.canUndo {
                try session.undo()
                position -= 1
            } else if session.canRedo {
                try session.redo()
                position += 1
            }
            #expect(session.draftKeymap == states[position])
        }
    }

    @Test("a new edit after undo drops the redo tail")
    func redoTailDropped() throws {
        var session = try Self.session()
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_B"), layer: 0)
        try session.setBinding(key: try Self.key("S"), action: try Self.action("KC_C"), layer: 0)
        try session.undo()
        #expect(session.canRedo)
        try session.setBinding(key: try Self.key("D"), action: try Self.action("KC_E"), layer: 0)
        #expect(!session.canRedo)
        #expect(session.operationLog.entries.count == 2)
        #expect(try session.action(layer: 0, key: try Self.key("S")) == .key(.keyboard(0x16)))
    }

    @Test("dirty means different from the base, not merely edited")
    func dirty() throws {
        var session = try Self.session()
        #expect(!session.isDirty && !session.canUndo)
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_B"), layer: 0)
        #expect(session.isDirty)
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_A"), layer: 0)
        #expect(!session.isDirty)
        #expect(session.canUndo)
        #expect(try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_A"), layer: 0) == false)
        #expect(session.operationLog.entries.count == 2, "an edit that changes nothing is not logged")
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_B"), layer: 0)
        session.discard()
        // Discarding is one more edit: the draft is clean, and undo brings it back.
        #expect(!session.isDirty && session.canUndo && !session.canRedo)
        try session.undo()
        #expect(try session.action(layer: 0, key: try Self.key("A")) == (try Self.action("KC_B")))
    }

    @Test("diff lists draft edits and device differences with old and new actions")
    func diff() throws {
        var session = try Self.session("tkl-ansi")
        try session.setBinding(key: try Self.key("CAPS"), action: try Self.action("KC_LCTL"), layer: 0)
        try session.setBinding(key: try Self.key("F1"), action: try Self.action("KC_MUTE"), layer: 1)
        var device = session.base
        device.setAction(try Self.action("KC_ESC"), layer: 0, key: try Self.key("GRAVE"))
        device.setAction(try Self.action("KC_X"), layer: 0, key: try Self.key("CAPS"))  // hidden by the draft
        try session.setDeviceKeymap(device)
        #expect(
            session.diff() == [
                KeymapDiffEntry(
                    zone: .standard, layer: 0, key: try Self.key("GRAVE"), old: try Self.action("KC_GRV"),
                    new: try Self.action("KC_ESC"), origin: .device),
                KeymapDiffEntry(
                    zone: .standard, layer: 0, key: try Self.key("CAPS"), old: try Self.action("KC_CAPS"),
                    new: try Self.action("KC_LCTL"), origin: .draft),
                KeymapDiffEntry(
                    zone: .function, layer: 1, key: try Self.key("F1"), old: .transparent,
                    new: try Self.action("KC_MUTE"), origin: .draft),
            ])
        session.markPushed()
        #expect(session.diff().isEmpty && !session.isDirty)
        #expect(try session.action(layer: 0, key: try Self.key("CAPS")) == .key(.keyboard(0xE0)))
    }

    @Test("zone operations: clear, copy, swap across layers")
    func zoneOperations() throws {
        var session = try Self.session()
        try session.clearZone(.number, layer: 0)
        #expect(try session.bindings(zone: .number, layer: 0).allSatisfy { $0.action == .none })
        try session.undo()
        try session.copyZone(.number, from: 0, to: 2)
        #expect(try session.action(layer: 2, key: try Self.key("KP_5")) == .key(.keyboard(0x5D)))
        try session.clearZone(.number, layer: 2)
        #expect(try session.action(layer: 2, key: try Self.key("KP_5")) == .transparent)
        try session.swapZones(ZoneSlot(.function, layer: 0), ZoneSlot(.function, layer: 1))
        #expect(try session.action(layer: 1, key: try Self.key("F5")) == .key(.keyboard(0x3E)))
        #expect(try session.action(layer: 0, key: try Self.key("F5")) == .transparent)
        #expect(session.diff().filter { $0.zone == .function }.count == 32)
        #expect(throws: KeymapError.self) { try session.copyZone(.number, from: 1, to: 1) }
        #expect(throws: KeymapError.self) {
            try session.swapZones(ZoneSlot(.number, layer: 0), ZoneSlot(.number, layer: 0))
        }
    }

    @Test("swapping two zones needs the same shape")
    func swapShapes() throws {
        // A macro pad: two 3x3 blocks (number and function) and one 2x3 block (navigation).
        var builder = LayoutBuilder()
        try builder.row(0, y: 0, .number, "N1 N2 N3")
        try builder.row(1, y: 1, .number, "N4 N5 N6")
        try builder.row(2, y: 2, .number, "N7 N8 N9")
        try builder.row(0, y: 0, x: 4, .function, "F1 F2 F3")
        try builder.row(1, y: 1, x: 4, .function, "F4 F5 F6")
        try builder.row(2, y: 2, x: 4, .function, "F7 F8 F9")
        try builder.row(3, y: 4, .navigation, "LEFT DOWN RIGHT")
        try builder.row(4, y: 5, .navigation, "HOME END PGUP")
        let layout = try builder.build(id: "pad", name: "pad")
        var session = try KeymapEditSession(layout: layout, base: Keymap(defaultsFor: layout))
        try session.swapZones(ZoneSlot(.number, layer: 0), ZoneSlot(.function, layer: 0))
        #expect(try session.action(layer: 0, key: try Self.key("N1")) == .key(.keyboard(0x3A)))  // F1's action
        #expect(try session.action(layer: 0, key: try Self.key("F9")) == .key(.keyboard(0x26)))  // N9 reads as ZMK's N9
        #expect(
            throws: KeymapError.zoneShapeMismatch(
                first: "number", second: "navigation",
                reason: "number has 9 keys and navigation has 6")
        ) {
            try session.swapZones(ZoneSlot(.number, layer: 0), ZoneSlot(.navigation, layer: 0))
        }
    }

    @Test("invalid edits throw clear errors and leave the session unchanged")
    func invalidEdits() throws {
        var session = try Self.session("aula-f87")
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_B"), layer: 0)
        let before = session.draftRecord
        #expect(throws: KeymapError.unknownKey("KP_1", layout: "aula-f87", suggestion: nil)) {
            try session.setBinding(key: try Self.key("KP_1"), action: .none, layer: 0)
        }
        #expect(throws: KeymapError.layerOutOfRange(4, layerCount: 4)) {
            try session.setBinding(key: try Self.key("A"), action: .none, layer: 4)
        }
        #expect(throws: KeymapError.layerOutOfRange(7, layerCount: 4)) {
            try session.setBinding(key: try Self.key("A"), action: .momentaryLayer(7), layer: 0)
        }
        #expect(throws: KeymapError.keyNotInZone(key: "ESC", zone: "standard", actualZone: "function")) {
            try session.setBinding(key: try Self.key("ESC"), action: .none, layer: 0, zone: .standard)
        }
        #expect(throws: KeymapError.macroNotFound("copy")) {
            try session.setBinding(key: try Self.key("A"), action: .macro(try MacroName("copy")), layer: 0)
        }
        #expect(
            throws: KeymapError.zoneNotInLayout(
                zone: "number", layout: "aula-f87",
                available: ["standard", "function", "navigation"])
        ) {
            try session.clearZone(.number, layer: 0)
        }
        #expect(throws: KeymapError.macroNotFound("nope")) { try session.removeMacro(try MacroName("nope")) }
        #expect(session.draftRecord == before)
    }

    @Test("macros: set, bind, refuse removal while bound, remove, undo")
    func macros() throws {
        var session = try Self.session()
        let copy = try MacroName("copy")
        try session.setMacro(copy, try Macro(parsing: "ctrl+c"))
        try session.setBinding(key: try Self.key("F1"), action: .macro(copy), layer: 1)
        #expect(throws: KeymapError.macroInUse("copy", boundTo: ["F1 on layer 1"])) { try session.removeMacro(copy) }
        try session.setBinding(key: try Self.key("F1"), action: .transparent, layer: 1)
        try session.removeMacro(copy)
        #expect(session.macros.isEmpty && !session.isDirty)
        try session.undo()
        #expect(session.macroDiff() == [MacroDiffEntry(name: copy, old: nil, new: try Macro(parsing: "ctrl+c"))])
    }

    @Test("a saved draft restores the same draft, undo history and zone")
    func restore() throws {
        var session = try Self.session()
        var random = SeededRandom(seed: 3)
        let generator = KeymapEditGenerator(layout: session.layout, layerCount: session.layerCount)
        for _ in 0..<200 { _ = try? session.apply(generator.next(using: &random, macros: session.macros)) }
        for _ in 0..<30 { try session.undo() }
        try session.selectZone(.navigation)
        var restored = try KeymapEditSession(layout: session.layout, base: session.base, draft: session.draftRecord)
        #expect(restored.draftKeymap == session.draftKeymap)
        #expect(restored.currentZone == .navigation)
        #expect(restored.draftRecord == session.draftRecord)
        #expect(restored.diff() == session.diff())
        for _ in 0..<30 {
            try restored.redo()
            try session.redo()
            #expect(restored.draftKeymap == session.draftKeymap)
        }
    }

    @Test("rebase replays the draft onto a fresh read of the keyboard")
    func rebase() throws {
        var session = try Self.session()
        try session.setBinding(key: try Self.key("A"), action: try Self.action("KC_B"), layer: 0)
        var newBase = session.base
        newBase.setAction(try Self.action("KC_Z"), layer: 0, key: try Self.key("S"))
        try session.rebase(onto: newBase)
        #expect(try session.action(layer: 0, key: try Self.key("S")) == .key(.keyboard(0x1D)))
        #expect(try session.action(layer: 0, key: try Self.key("A")) == .key(.keyboard(0x05)))
        #expect(session.diff().count == 1)
    }
}

/// Random edits for property tests: mostly valid, some invalid on purpose.
struct KeymapEditGenerator {
    let layout: PhysicalLayout
    let layerCount: Int
    let actions: [KeyAction]

    init(layout: PhysicalLayout, layerCount: Int) {
        self.layout = layout
        self.layerCount = layerCount
        let macroName = (try? MacroName("m1")).map { KeyAction.macro($0) } ?? .none
        actions = [
            .none, .transparent, .key(.keyboard(0x04)), .key(.keyboard(0x05)), .key(.consumer(0xE9)),
            .momentaryLayer(1), .toggleLayer(3), .layerTap(layer: 2, tap: KeyPress(.keyboard(0x2C))),
            .key(KeyPress(.keyboard(0x1E), modifiers: .leftShift)), macroName, .momentaryLayer(9),
        ]
    }

    func next(using random: inout SeededRandom, macros: [MacroName: Macro]) -> EditOperation {
        let layer = Int.random(in: 0..<layerCount, using: &random)
        let zone = layout.zones.randomElement(using: &random) ?? .standard
        let names = ["m1", "m2"].compactMap { try? MacroName($0) }
        switch Int.random(in: 0..<20, using: &random) {
        case 0: return .clearZone(zone, layer: layer)
        case 1: return .copyZone(zone, from: layer, to: Int.random(in: 0..<layerCount, using: &random))
        case 2:
            return .swapZones(
                ZoneSlot(zone, layer: layer), ZoneSlot(zone, layer: Int.random(in: 0..<layerCount, using: &random)))
        case 3:
            let macro =
                (try? Macro(parsing: ["ctrl+c", "text 'hi'", "delay 5, enter"].randomElement(using: &random) ?? "a"))
            return .setMacro(
                names.randomElement(using: &random) ?? names[0], macro ?? Macro(trustedSteps: [.text("x")]))
        case 4: return .removeMacro(names.randomElement(using: &random) ?? names[0])
        case 5: return .addLayer(Int.random(in: 0...layerCount, using: &random))
        case 6: return .removeLayer(Int.random(in: 0..<layerCount + 1, using: &random))
        case 7:
            return .moveLayer(from: layer, to: Int.random(in: 0..<layerCount + 1, using: &random))
        case 8: return .copyLayer(from: layer, to: Int.random(in: 0..<layerCount, using: &random))
        case 9:
            let name = ["Nav", "Fn", "Símbolos"].randomElement(using: &random).flatMap { try? LayerName($0) }
            return .renameLayer(
                Int.random(in: 0..<layerCount + 1, using: &random), Bool.random(using: &random) ? name : nil)
        default:
            let key = layout.keys.randomElement(using: &random)?.name ?? layout.keys[0].name
            return .setBinding(layer: layer, key: key, action: actions.randomElement(using: &random) ?? .none)
        }
    }
}

/// An independent, naive model of what edits do, to check the session against.
struct KeymapReferenceModel {
    var keymap: Keymap

    init(_ keymap: Keymap) {
        self.keymap = keymap
    }

    /// The keymap after the operation, or nil when the operation must be refused.
    func applying(_ operation: EditOperation, layout: PhysicalLayout) -> Keymap? {
        var result = keymap
        let layers = keymap.layerCount
        func valid(_ action: KeyAction) -> Bool {
            if let layer = action.referencedLayer, layer >= layers { return false }
            if let macro = action.referencedMacro, keymap.macros[macro] == nil { return false }
            return true
        }
        switch operation {
        case .setBinding(let layer, let key, let action):
            guard layer < layers, layout.contains(key), valid(action) else { return nil }
            result.setAction(action, layer: layer, key: key)
        case .clearZone(let zone, let layer):
            guard layer < layers else { return nil }
            for key in layout.keys where key.zone == zone {
                result.setAction(layer == 0 ? .none : .transparent, layer: layer, key: key.name)
            }
        case .copyZone(let zone, let from, let to):
            guard from != to, from < layers, to < layers else { return nil }
            for key in layout.keys where key.zone == zone {
                result.setAction(keymap.layers[from][key.name] ?? .none, layer: to, key: key.name)
            }
        case .swapZones(let first, let second):
            guard first != second, first.zone == second.zone, first.layer < layers, second.layer < layers else {
                return nil
            }
            for key in layout.keys where key.zone == first.zone {
                result.setAction(keymap.layers[second.layer][key.name] ?? .none, layer: first.layer, key: key.name)
                result.setAction(keymap.layers[first.layer][key.name] ?? .none, layer: second.layer, key: key.name)
            }
        case .setMacro(let name, let macro), .recordMacro(let name, let macro):
            result.macros[name] = macro
        case .removeMacro(let name):
            guard keymap.macros[name] != nil else { return nil }
            let bound = keymap.layers.contains { layer in layer.values.contains { $0 == .macro(name) } }
            guard !bound else { return nil }
            result.macros[name] = nil
        case .importProfile(let imported):
            result = imported
        case .replaceKeymap(let imported):
            guard let valid = try? imported.validated(for: layout) else { return nil }
            result = valid
        case .mergeProfile(let imported):
            guard imported.layerCount <= layers else { return nil }
            result.macros.merge(imported.macros) { _, new in new }
            for (layer, bindings) in imported.layers.enumerated() {
                for (key, action) in bindings { result.setAction(action, layer: layer, key: key) }
            }
        case .addLayer(let index):
            guard (1...layers).contains(index), layers < Keymap.maximumLayers else { return nil }
            var rows = keymap.layers.map { row in row.mapValues { Self.renumber($0, from: index, by: 1) } }
            rows.insert(
                Dictionary(uniqueKeysWithValues: layout.keys.map { ($0.name, KeyAction.transparent) }), at: index)
            var names = (0..<layers).map { keymap.layerName($0) }
            names.insert(nil, at: index)
            result = Keymap(layers: rows, macros: keymap.macros, layerNames: Self.names(names))
        case .removeLayer(let index):
            guard layers > 1, (1..<layers).contains(index) else { return nil }
            let switching = keymap.layers.enumerated().contains { layer, row in
                layer != index && row.values.contains { $0.referencedLayer == index }
            }
            guard !switching else { return nil }
            var rows = keymap.layers
            rows.remove(at: index)
            var names = (0..<layers).map { keymap.layerName($0) }
            names.remove(at: index)
            result = Keymap(
                layers: rows.map { row in row.mapValues { Self.renumber($0, from: index + 1, by: -1) } },
                macros: keymap.macros, layerNames: Self.names(names))
        case .renameLayer(let layer, let name):
            guard layer < layers else { return nil }
            result.setLayerName(name, layer: layer)
        case .copyLayer(let from, let to):
            guard from != to, from < layers, to < layers else { return nil }
            for key in layout.keys {
                result.setAction(keymap.layers[from][key.name] ?? .none, layer: to, key: key.name)
            }
        case .moveLayer(let from, let to):
            guard from != to, from < layers, to < layers else { return nil }
            // The old layers in their new order; a switch to old layer L goes to L's new place.
            var order = Array(0..<layers)
            order.insert(order.remove(at: from), at: to)
            var place: [Int: Int] = [:]
            for (new, old) in order.enumerated() { place[old] = new }
            func follow(_ action: KeyAction) -> KeyAction {
                switch action {
                case .momentaryLayer(let layer): return .momentaryLayer(place[layer] ?? layer)
                case .toggleLayer(let layer): return .toggleLayer(place[layer] ?? layer)
                case .toLayer(let layer): return .toLayer(place[layer] ?? layer)
                case .layerTap(let layer, let tap): return .layerTap(layer: place[layer] ?? layer, tap: tap)
                default: return action
                }
            }
            result = Keymap(
                layers: order.map { keymap.layers[$0].mapValues(follow) }, macros: keymap.macros,
                layerNames: Self.names(order.map { keymap.layerName($0) }))
        }
        return result
    }

    /// Names by layer from a list of optional names.
    static func names(_ list: [LayerName?]) -> [Int: LayerName] {
        var result: [Int: LayerName] = [:]
        for (layer, name) in list.enumerated() { result[layer] = name }
        return result
    }

    /// A layer switch to `from` or above moved by `offset`.
    static func renumber(_ action: KeyAction, from: Int, by offset: Int) -> KeyAction {
        switch action {
        case .momentaryLayer(let layer) where layer >= from: return .momentaryLayer(layer + offset)
        case .toggleLayer(let layer) where layer >= from: return .toggleLayer(layer + offset)
        case .toLayer(let layer) where layer >= from: return .toLayer(layer + offset)
        case .layerTap(let layer, let tap) where layer >= from: return .layerTap(layer: layer + offset, tap: tap)
        default: return action
        }
    }
}
