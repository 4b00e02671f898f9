import KeyboardLinkKeymap
import KeyboardLinkSimulator
import Testing

@testable import KeyboardLinkDrivers

/// `PushMerge`: the three-way merge of base, draft and keyboard behind every push.
@Suite("Three-way push merge")
struct PushMergeTests {
    static func layout() throws -> PhysicalLayout { try PhysicalLayout.builtIn("ansi-60") }

    /// A device holding `keymap`, every binding expressible.
    static func device(_ keymap: Keymap) -> DeviceKeymap {
        DeviceKeymap(layers: keymap.layers.map { $0.mapValues { .action($0) } })
    }

    static func key(_ name: String) throws -> KeyName { try KeyName(name) }

    @Test("only the edited key is written; every other key stays as the keyboard has it")
    func onlyEdits() throws {
        let layout = try Self.layout()
        let base = SimulatedOwnerKeymap.keymap(for: layout, layerCount: 2)
        var draft = base
        draft.setAction(try KeyAction(parsing: "KC_F13"), layer: 0, key: try Self.key("CAPS"))
        let merge = PushMerge(base: base, draft: draft, device: Self.device(base), layout: layout)
        #expect(merge.edited == [PushMerge.KeyPosition(layer: 0, key: try Self.key("CAPS"))])
        #expect(merge.kept.isEmpty && merge.conflicts.isEmpty)
        #expect(merge.desired == draft)
        let plan = try DriverPush.changes(
            desired: merge.desired, device: Self.device(base), layout: layout, only: merge.edited)
        #expect(plan.keys.map(\.key) == [try Self.key("CAPS")])
    }

    @Test("a draft on kblink's default keymap overwrites nothing it did not edit (the data-loss case)")
    func defaultBaseAgainstOwnersKeyboard() throws {
        let layout = try Self.layout()
        let defaults = Keymap(defaultsFor: layout, layerCount: 2)
        let owners = SimulatedOwnerKeymap.keymap(for: layout, layerCount: 2)
        // Every layer-0 key of the owner's keymap differs from kblink's default.
        #expect(
            layout.keys.allSatisfy { owners.action(layer: 0, key: $0.name) != defaults.action(layer: 0, key: $0.name) })
        // After the base is read from the keyboard, one edit writes one key.
        var draft = owners
        draft.setAction(try KeyAction(parsing: "KC_F13"), layer: 0, key: try Self.key("A"))
        let merge = PushMerge(base: owners, draft: draft, device: Self.device(owners), layout: layout)
        #expect(merge.edited?.count == 1)
        // Overwriting writes every key that differs, and says so.
        let overwrite = PushMerge(
            base: owners, draft: defaults, device: Self.device(owners), layout: layout, resolution: .overwrite)
        #expect(overwrite.edited == nil && overwrite.desired == defaults)
    }

    @Test("a key the keyboard changed by itself is kept and listed; the user's edit is still written")
    func drift() throws {
        let layout = try Self.layout()
        let base = Keymap(defaultsFor: layout, layerCount: 2)
        var keyboard = base
        keyboard.setAction(try KeyAction(parsing: "KC_B"), layer: 0, key: try Self.key("A"))
        var draft = base
        draft.setAction(try KeyAction(parsing: "KC_LCTL"), layer: 0, key: try Self.key("CAPS"))
        let merge = PushMerge(base: base, draft: draft, device: Self.device(keyboard), layout: layout)
        #expect(merge.kept.map(\.key) == [try Self.key("A")])
        #expect(merge.kept.first?.keyboard == .action(try KeyAction(parsing: "KC_B")))
        #expect(merge.conflicts.isEmpty)
        #expect(merge.edited == [PushMerge.KeyPosition(layer: 0, key: try Self.key("CAPS"))])
        #expect(merge.desired.action(layer: 0, key: try Self.key("A")) == (try KeyAction(parsing: "KC_B")))
        #expect(merge.desired.action(layer: 0, key: try Self.key("CAPS")) == (try KeyAction(parsing: "KC_LCTL")))
    }

    @Test("a key both sides changed differently is a conflict; keep-keyboard keeps the keyboard's; same change is none")
    func conflicts() throws {
        let layout = try Self.layout()
        let base = Keymap(defaultsFor: layout, layerCount: 2)
        var keyboard = base
        keyboard.setAction(try KeyAction(parsing: "KC_ESC"), layer: 0, key: try Self.key("CAPS"))
        keyboard.setAction(try KeyAction(parsing: "KC_X"), layer: 1, key: try Self.key("Q"))
        var draft = base
        draft.setAction(try KeyAction(parsing: "KC_LCTL"), layer: 0, key: try Self.key("CAPS"))
        draft.setAction(try KeyAction(parsing: "KC_X"), layer: 1, key: try Self.key("Q"))
        let merge = PushMerge(base: base, draft: draft, device: Self.device(keyboard), layout: layout)
        #expect(merge.conflicts.map { "\($0.layer) \($0.key)" } == ["0 CAPS"])
        #expect(merge.conflicts.first?.draft == (try KeyAction(parsing: "KC_LCTL")))
        // Q: both changed it the same way; nothing to write, nothing to report.
        #expect(merge.edited == [PushMerge.KeyPosition(layer: 1, key: try Self.key("Q"))])
        let kept = PushMerge(
            base: base, draft: draft, device: Self.device(keyboard), layout: layout, resolution: .keepKeyboard)
        let caps = try Self.key("CAPS")
        #expect(kept.conflicts.isEmpty && kept.kept.map(\.key) == [caps])
        #expect(kept.desired.action(layer: 0, key: try Self.key("CAPS")) == (try KeyAction(parsing: "KC_ESC")))
    }

    @Test("a binding kblink cannot express stays unless the user edits that key, even when overwriting")
    func unexpressedBindings() throws {
        let layout = try Self.layout()
        let base = Keymap(defaultsFor: layout, layerCount: 1)
        var device = Self.device(base)
        let esc = try Self.key("ESC")
        device.layers[0][esc] = .other("\"Bluetooth\" 0 1")
        // As read into the base, the binding is the cleared action.
        var read = base
        read.setAction(.none, layer: 0, key: esc)
        let merge = PushMerge(base: read, draft: read, device: device, layout: layout)
        #expect(merge.kept.isEmpty && merge.edited?.isEmpty == true)
        // Overwriting with a draft that holds the cleared action there leaves it too.
        let plan = try DriverPush.changes(desired: read, device: device, layout: layout)
        #expect(plan.keys.isEmpty)
        // An edit of that key is written.
        var draft = read
        draft.setAction(try KeyAction(parsing: "KC_GRV"), layer: 0, key: esc)
        let edited = PushMerge(base: read, draft: draft, device: device, layout: layout)
        let writes = try DriverPush.changes(
            desired: edited.desired, device: device, layout: layout, only: edited.edited)
        #expect(writes.keys.map(\.key) == [esc])
    }

    @Test(
        "a macro the draft edited is written even though no key's binding changed; one the keyboard changed conflicts")
    func macros() throws {
        let layout = try Self.layout()
        let name = try MacroName("sig")
        var base = Keymap(defaultsFor: layout, layerCount: 1)
        base.macros[name] = try Macro(parsing: "text 'old'")
        base.setAction(.macro(name), layer: 0, key: try Self.key("A"))
        var draft = base
        draft.macros[name] = try Macro(parsing: "text 'new'")
        // The keyboard holds the base's macro in slot 0, played by F1.
        var device = Self.device(base)
        device.layers[0][try Self.key("A")] = .macroSlot(0)
        device.macros = DeviceMacros(
            slots: [.macro(try Macro(parsing: "text 'old'").normalized()), .empty], capacity: 1_024, storage: [])
        let merge = PushMerge(base: base, draft: draft, device: device, layout: layout)
        #expect(merge.conflicts.isEmpty)
        #expect(merge.edited == [PushMerge.KeyPosition(layer: 0, key: try Self.key("A"))])
        let plan = try DriverPush.changes(desired: merge.desired, device: device, layout: layout, only: merge.edited)
        #expect(plan.macros?.changed == [0])
        // Another tool changed the slot's text meanwhile: both changed the macro.
        device.macros = DeviceMacros(
            slots: [.macro(try Macro(parsing: "text 'theirs'").normalized()), .empty], capacity: 1_024, storage: [])
        let clash = PushMerge(base: base, draft: draft, device: device, layout: layout)
        #expect(clash.conflicts.map(\.key) == [try Self.key("A")])
    }
}
