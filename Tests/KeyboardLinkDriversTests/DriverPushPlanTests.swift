import KeyboardLinkKeymap
import Testing

@testable import KeyboardLinkDrivers

/// `DriverPush.plan`: which bindings a push writes.
@Suite("Push plans")
struct DriverPushPlanTests {
    static func layout() throws -> PhysicalLayout { try PhysicalLayout.builtIn("ansi-60") }

    @Test("only keys whose device binding differs are written, in layer then layout order")
    func onlyDifferences() throws {
        let layout = try Self.layout()
        var desired = Keymap(defaultsFor: layout, layerCount: 2)
        let device = DeviceKeymap(layers: desired.layers.map { $0.mapValues { .action($0) } })
        let first = layout.keys[3].name
        let last = layout.keys[layout.keys.count - 1].name
        desired.setAction(.momentaryLayer(1), layer: 1, key: first)
        desired.setAction(.none, layer: 0, key: last)
        let writes = try DriverPush.plan(desired: desired, device: device, layout: layout)
        #expect(
            writes == [
                DriverKeyWrite(layer: 0, key: last, action: .none),
                DriverKeyWrite(layer: 1, key: first, action: .momentaryLayer(1)),
            ])
        #expect(
            try DriverPush.plan(
                desired: desired,
                device: DeviceKeymap(
                    layers: desired.layers.map {
                        $0.mapValues { .action($0) }
                    }), layout: layout
            ).isEmpty)
    }

    @Test("a binding kblink cannot name is rewritten; layers the keyboard lacks are left out unless they bind keys")
    func otherAndLayers() throws {
        let layout = try Self.layout()
        let desired = Keymap(defaultsFor: layout, layerCount: 2)
        var layers = desired.layers.map { $0.mapValues { DeviceKeymap.Binding.action($0) } }
        let key = layout.keys[0].name
        layers[0][key] = .other("\"Bluetooth\" 0 0")
        let writes = try DriverPush.plan(desired: desired, device: DeviceKeymap(layers: layers), layout: layout)
        #expect(writes.map(\.key) == [key])
        // Layer 1 is all transparent: a keyboard with one layer gets layer 0 only.
        #expect(
            try DriverPush.plan(desired: desired, device: DeviceKeymap(layers: [layers[0]]), layout: layout).map(\.key)
                == [key])
        var bound = desired
        bound.setAction(.key(.keyboard(0x04)), layer: 1, key: key)
        #expect {
            try DriverPush.plan(desired: bound, device: DeviceKeymap(layers: [layers[0]]), layout: layout)
        } throws: { error in
            "\(error)".contains("layer 1 (\(key))")
        }
    }

    @Test("macro slots: a macro the keyboard holds keeps its slot, others take the lowest free one, the rest empty")
    func macroSlots() throws {
        let layout = try Self.layout()
        let copy = try MacroName("copy")
        let signature = try MacroName("sig")
        var desired = Keymap(defaultsFor: layout, layerCount: 2)
        desired.macros[copy] = try Macro(parsing: "ctrl+c")
        desired.macros[signature] = try Macro(parsing: "text 'Hi'")
        desired.macros[try MacroName("unbound")] = try Macro(parsing: "text 'x'")
        let first = layout.keys[1].name
        let second = layout.keys[2].name
        desired.setAction(.macro(copy), layer: 0, key: first)
        desired.setAction(.macro(signature), layer: 1, key: second)
        // The keyboard holds `copy` (in its canonical form, as decoded) in slot 2, junk in slot 0, and its first
        // key already plays slot 2.
        var layers = desired.layers.map { $0.mapValues { DeviceKeymap.Binding.action($0) } }
        layers[0][first] = .macroSlot(2)
        layers[1][second] = .action(.transparent)
        let macros = DeviceMacros(
            slots: [.other("junk"), .empty, .macro(try Macro(parsing: "press ctrl, c, release ctrl").normalized())],
            capacity: 64, storage: [])
        let plan = try DriverPush.changes(
            desired: desired, device: DeviceKeymap(layers: layers, macros: macros), layout: layout)
        #expect(plan.macros?.slots.map { $0?.name } == [signature, nil, copy])
        // Slot 0 changes from junk to `sig`; slot 1 stays empty; slot 2 already holds `copy`.
        #expect(plan.macros?.changed == [0])
        #expect(plan.keys == [DriverKeyWrite(layer: 1, key: second, action: .macro(signature), macroSlot: 0)])

        // Without runtime macros (ZMK) a macro binding is compared as an action, and no slots are planned.
        var zmk = desired.layers.map { $0.mapValues { DeviceKeymap.Binding.action($0) } }
        zmk[1][second] = .action(.transparent)
        let plain = try DriverPush.changes(desired: desired, device: DeviceKeymap(layers: zmk), layout: layout)
        #expect(plain.macros == nil)
        #expect(plain.keys == [DriverKeyWrite(layer: 1, key: second, action: .macro(signature))])
    }

    @Test("more bound macros than slots, or a bound macro without a definition, is NotSupported")
    func macroLimits() throws {
        let layout = try Self.layout()
        var desired = Keymap(defaultsFor: layout, layerCount: 1)
        let copy = try MacroName("copy")
        desired.setAction(.macro(copy), layer: 0, key: layout.keys[0].name)
        let device = DeviceKeymap(
            layers: desired.layers.map { $0.mapValues { .action($0) } },
            macros: DeviceMacros(slots: [], capacity: 0, storage: []))
        #expect(throws: DriverError.notSupported("macro copy is bound to keys but not defined; define it or unbind it"))
        {
            try DriverPush.changes(desired: desired, device: device, layout: layout)
        }
        desired.macros[copy] = try Macro(parsing: "ctrl+c")
        #expect(
            throws: DriverError.notSupported(
                "the profile binds 1 macro(s) (copy), the keyboard has 0 macro slot(s); unbind 1 of them from their keys"
            )
        ) {
            try DriverPush.changes(desired: desired, device: device, layout: layout)
        }
    }

    @Test("a key read as playing an empty macro slot keeps its raw QMK keycode and is not rewritten")
    func rawMacroKeycode() throws {
        let layout = try Self.layout()
        var desired = Keymap(defaultsFor: layout, layerCount: 1)
        let key = layout.keys[0].name
        var layers = desired.layers.map { $0.mapValues { DeviceKeymap.Binding.action($0) } }
        layers[0][key] = .macroSlot(1)
        let device = DeviceKeymap(
            layers: layers, macros: DeviceMacros(slots: [.empty, .empty], capacity: 8, storage: []))
        // What `keymap pull` makes of it: QMK(0x7701), QK_MACRO_1.
        desired = device.keymap()
        #expect(desired.action(layer: 0, key: key) == .qmkKeycode(0x7701))
        #expect(try DriverPush.changes(desired: desired, device: device, layout: layout).isEmpty)
    }
}
