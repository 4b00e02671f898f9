import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `org.kblink1.Keymap` over D-Bus, method by method, against the daemon's service on a private bus.
@Suite("org.kblink1.Keymap methods and properties")
struct KeymapInterfaceTests {
    @Test("properties describe each keyboard's layout and a clean draft")
    func initialProperties() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                let state = try await keymap.state()
                #expect(state.layout == "aula-f87")
                #expect(state.zones == ["standard", "function", "navigation"])
                #expect(state.currentZone == "standard")
                #expect(state.layers == 4)
                #expect(!state.canUndo && !state.canRedo && !state.dirty)
                #expect(state.macros.isEmpty)
            }
            try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { keymap in
                let state = try await keymap.state()
                #expect(state.layout == "vgn-98pro")
                #expect(state.zones == ["standard", "number", "function", "navigation"])
            }
        }
    }

    @Test(
        "the layout follows the keyboard's name",
        arguments: [
            ("AULA F87 Pro", "aula-f87"), ("VGN 98Pro", "vgn-98pro"), ("Keychron Q98", "vgn-98pro"),
            ("Logitech K380", "tkl-ansi"), ("Model 1998", "tkl-ansi"),
        ])
    func layoutGuess(name: String, layout: String) async throws {
        #expect(KeymapSessions.guessedLayoutID(forName: name) == layout)
        let device = KeymapFixture.keyboard(name, address: "AA:BB:CC:00:00:01")
        try await withDaemon(devices: [device]) { harness in
            let state = try await KeymapFixture.withKeymap(harness, device.address) { try await $0.state() }
            #expect(state.layout == layout)
        }
    }

    @Test("GetBindings lists a zone's keys in reading order with QMK names; an empty zone is the current one")
    func getBindings() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                let function = try await keymap.bindings(zone: "function", layer: 0)
                #expect(function.count == 16)
                #expect(function.prefix(3).map(\.key) == ["ESC", "F1", "F2"])
                #expect(function.prefix(3).map(\.action) == ["KC_ESC", "KC_F1", "KC_F2"])
                #expect(function.last.map { [$0.key, $0.action] } == ["PAUS", "KC_PAUS"])
                let upper = try await keymap.bindings(zone: "fn", layer: 1)
                #expect(upper.allSatisfy { $0.action == "KC_TRNS" })
                let current = try await keymap.bindings(zone: "", layer: 0)
                #expect(current.count == 61)
                #expect(current.first.map { [$0.key, $0.action] } == ["GRAVE", "KC_GRV"])
                #expect(current.first(where: { $0.key == "FN" })?.action == "MO(1)")
                let navigation = try await keymap.bindings(zone: "navigation", layer: 3)
                #expect(
                    navigation.map(\.key) == [
                        "INS", "HOME", "PGUP", "DEL", "END", "PGDN", "UP", "LEFT", "DOWN", "RIGHT",
                    ])
            }
        }
    }

    @Test("SetBinding stages an edit that Diff lists and Undo, Redo and Discard move through")
    func editUndoRedoDiscard() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                try await keymap.setBinding(zone: "standard", layer: 0, key: "caps", action: "LCTRL")
                #expect(
                    try await keymap.bindings(zone: "standard", layer: 0).first { $0.key == "CAPS" }?.action
                        == "KC_LCTL")
                var state = try await keymap.state()
                #expect(state.dirty && state.canUndo && !state.canRedo)
                #expect(
                    try await keymap.diff()
                        == [
                            KeymapDiffRow(
                                zone: "standard", layer: 0, key: "CAPS", old: "KC_CAPS", new: "KC_LCTL", origin: "draft"
                            )
                        ])
                try await keymap.setBinding(layer: 2, key: "F5", action: "KEY_MUTE")
                #expect(try await keymap.diff().map(\.key) == ["CAPS", "F5"])

                try await keymap.undo()
                #expect(try await keymap.diff().map(\.key) == ["CAPS"])
                try await keymap.undo()
                state = try await keymap.state()
                #expect(!state.dirty && !state.canUndo && state.canRedo)
                #expect(try await keymap.diff().isEmpty)
                await KeymapFixture.expectError(.notSupported, containing: ["nothing to undo"]) {
                    try await keymap.undo()
                }
                try await keymap.redo()
                try await keymap.redo()
                #expect(try await keymap.diff().map(\.new) == ["KC_LCTL", "KC_MUTE"])
                await KeymapFixture.expectError(.notSupported, containing: ["nothing to redo"]) {
                    try await keymap.redo()
                }
                try await keymap.undo()
                try await keymap.setBinding(layer: 1, key: "A", action: "KC_B")
                #expect(try await keymap.state().canRedo == false, "a new edit drops the redo tail")

                try await keymap.discard()
                state = try await keymap.state()
                // Discard is one more edit: clean, and undoable.
                #expect(!state.dirty && state.canUndo && !state.canRedo)
                #expect(try await keymap.diff().isEmpty)
                #expect(
                    try await keymap.bindings(zone: "standard", layer: 0).first { $0.key == "CAPS" }?.action
                        == "KC_CAPS")
            }
        }
    }

    @Test("CurrentZone is validated and normalized, and switching keeps every zone's edits")
    func currentZone() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                try await keymap.setBinding(zone: "function", layer: 0, key: "F1", action: "KC_MUTE")
                try await keymap.selectZone("nav")
                #expect(try await keymap.currentZone() == "navigation")
                try await keymap.setBinding(zone: "navigation", layer: 0, key: "INS", action: "KC_PSCR")
                try await keymap.selectZone("FUNCTION")
                #expect(try await keymap.currentZone() == "function")
                #expect(try await keymap.diff().map(\.key) == ["F1", "INS"])
                await KeymapFixture.expectError(
                    .invalidArgs, containing: ["has no number zone", "standard"]
                ) {
                    try await keymap.selectZone("number")
                }
                await KeymapFixture.expectError(.invalidArgs, containing: ["unknown zone 'keys'"]) {
                    try await keymap.selectZone("keys")
                }
                #expect(try await keymap.currentZone() == "function")
            }
        }
    }

    @Test("PropertiesChanged announces CurrentZone, CanUndo, CanRedo, Dirty and Macros")
    func propertiesChanged() async throws {
        try await withDaemon { harness in
            let listener = try await harness.bus.connect()
            let path = KBlink.keyboardPath(KeymapFixture.aula)
            let signals = try await listener.subscribe(
                to: MatchRule(
                    sender: KBlink.service, path: path, interface: .properties,
                    member: MemberName("PropertiesChanged"), arg0: KBlink.keymapInterface.rawValue))
            let seen = ChangeLog()
            let reader = Task {
                for await message in signals {
                    guard message.body.count == 3, let changed = message.body[1].stringDictionary else { continue }
                    await seen.add(changed)
                }
            }
            try await KeymapFixture.withKeymap(harness) { keymap in
                try await keymap.selectZone("function")
                #expect(await eventually { await seen.last("CurrentZone") == .string("function") })
                try await keymap.setBinding(layer: 0, key: "ESC", action: "KC_GRV")
                // An edit announces each changed property in a signal of its own, one after another: each is waited
                // for (reading Dirty right after CanUndo arrived raced its own signal on a loaded machine).
                #expect(await eventually { await seen.last("CanUndo") == .boolean(true) })
                #expect(await eventually { await seen.last("Dirty") == .boolean(true) })
                try await keymap.undo()
                #expect(await eventually { await seen.last("CanRedo") == .boolean(true) })
                #expect(await eventually { await seen.last("CanUndo") == .boolean(false) })
                #expect(await eventually { await seen.last("Dirty") == .boolean(false) })
                try await keymap.setMacro(name: "hi", definition: "text 'hi'")
                // The name is announced, its text withheld (GetMacros gives it to callers allowed read-macros).
                let macros = DBusValue.dictionary(
                    key: .string, value: .string, [DBusDictionaryEntry(key: .string("hi"), value: .string(""))])
                #expect(await eventually { await seen.last("Macros") == macros })
                #expect(await eventually { await seen.last("CanRedo") == .boolean(false) })
            }
            reader.cancel()
            await listener.close()
        }
    }

    @Test("macros: SetMacro, the Macros property, MACRO(name) bindings, and RemoveMacro")
    func macros() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                try await keymap.setMacro(name: "sig", definition: "text 'Best regards', ENTER")
                try await keymap.setMacro(name: "copy", definition: "ctrl+c")
                #expect(try await keymap.macros() == ["sig": "text 'Best regards', enter", "copy": "ctrl+c"])
                try await keymap.setBinding(layer: 1, key: "F2", action: "MACRO(sig)")
                #expect(
                    try await keymap.bindings(zone: "function", layer: 1).first { $0.key == "F2" }?.action
                        == "MACRO(sig)")
                await KeymapFixture.expectError(.failed, containing: ["still bound to F2 on layer 1"]) {
                    try await keymap.removeMacro(name: "sig")
                }
                await KeymapFixture.expectError(.notFound, containing: ["no macro named 'nope'"]) {
                    try await keymap.setBinding(layer: 1, key: "F3", action: "MACRO(nope)")
                }
                await KeymapFixture.expectError(.notFound, containing: ["no macro named 'nope'"]) {
                    try await keymap.removeMacro(name: "nope")
                }
                try await keymap.removeMacro(name: "copy")
                #expect(try await keymap.macros() == ["sig": "text 'Best regards', enter"])
                try await keymap.undo()
                #expect(try await keymap.macros().keys.sorted() == ["copy", "sig"])
            }
        }
    }

    @Test("ExportProfile then ImportProfile gives the same profile, staged as one undoable edit")
    func exportImportRoundTrip() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                try await keymap.setMacro(name: "paste", definition: "ctrl+v")
                try await keymap.setBinding(layer: 0, key: "CAPS", action: "LCTL_T(KC_ESC)")
                try await keymap.setBinding(layer: 1, key: "H", action: "KC_LEFT")
                try await keymap.setBinding(layer: 2, key: "F12", action: "MACRO(paste)")
                try await keymap.setBinding(layer: 3, key: "SPACE", action: "LT(2, KC_SPC)")
                let exported = try await keymap.exportProfile()
                let diff = try await keymap.diff()
                let document = try ProfileDocument(json: exported)
                #expect(document.layout.rawValue == "aula-f87")
                #expect(document.keymap.layerCount == 4)

                try await keymap.discard()
                #expect(try await keymap.diff().isEmpty)
                try await keymap.importProfile(exported)
                #expect(try await keymap.exportProfile() == exported)
                #expect(try await keymap.diff() == diff)
                #expect(try await keymap.macros() == ["paste": "ctrl+v"])
                try await keymap.undo()
                #expect(try await keymap.diff().isEmpty, "the import is one edit")
            }
            try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { vgn in
                let aulaProfile = try await KeymapFixture.withKeymap(harness) { try await $0.exportProfile() }
                await KeymapFixture.expectError(
                    .invalidArgs, containing: ["the profile is for layout aula-f87", "vgn-98pro"]
                ) {
                    try await vgn.importProfile(aulaProfile)
                }
            }
        }
    }

    @Test("GetKeys gives every key with its zone and place")
    func getKeys() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { keymap in
                let keys = try await keymap.keys()
                #expect(keys.count == 87)
                #expect(keys.first == KeymapKeyInfo(key: "ESC", zone: "function", x: 0, y: 0, width: 1, height: 1))
                #expect(keys.first { $0.key == "SPACE" }?.width == 6.25)
                #expect(
                    keys.first { $0.key == "UP" }
                        == KeymapKeyInfo(key: "UP", zone: "navigation", x: 16.25, y: 4.5, width: 1, height: 1))
                #expect(
                    Dictionary(grouping: keys, by: \.zone).mapValues(\.count) == [
                        "standard": 61, "function": 16, "navigation": 10,
                    ])
            }
        }
    }

    @Test("each keyboard has its own draft")
    func separateSessions() async throws {
        try await withDaemon { harness in
            try await KeymapFixture.withKeymap(harness) { aula in
                try await KeymapFixture.withKeymap(harness, KeymapFixture.vgn) { vgn in
                    try await aula.setBinding(layer: 0, key: "A", action: "KC_B")
                    try await vgn.setBinding(zone: "number", layer: 0, key: "KP_1", action: "KC_END")
                    #expect(try await aula.diff().map(\.key) == ["A"])
                    #expect(try await vgn.diff().map(\.key) == ["KP_1"])
                    try await aula.undo()
                    #expect(try await vgn.state().dirty)
                }
            }
        }
    }
}

/// The property values seen in `PropertiesChanged` signals, newest last.
actor ChangeLog {
    private var changes: [[String: DBusValue]] = []

    func add(_ change: [String: DBusValue]) {
        changes.append(change)
    }

    /// The newest value of a property, looking through the variant.
    func last(_ name: String) -> DBusValue? {
        changes.last { $0[name] != nil }?[name]?.unwrapped
    }
}
