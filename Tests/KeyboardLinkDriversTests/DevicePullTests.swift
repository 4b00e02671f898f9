import KeyboardLinkKeymap
import Testing

@testable import KeyboardLinkDrivers

/// `DevicePull`: what `Keymap.Pull` stages from a device keymap, and what it counts as unknown.
@Suite("Device pulls")
struct DevicePullTests {
    static func layout() throws -> PhysicalLayout { try PhysicalLayout.builtIn("ansi-60") }

    @Test("unknown bindings, layer switches beyond the profile and undefined macros become the cleared action")
    func unknownBecomesCleared() throws {
        let layout = try Self.layout()
        let defaults = Keymap(defaultsFor: layout, layerCount: 2)
        var layers = defaults.layers.map { $0.mapValues { DeviceKeymap.Binding.action($0) } }
        let (a, b, c, d) = (layout.keys[0].name, layout.keys[1].name, layout.keys[2].name, layout.keys[3].name)
        layers[0][a] = .other("\"Bluetooth\" 0 0")
        layers[0][b] = .action(.momentaryLayer(3))
        layers[1][c] = .action(.macro(try MacroName("zmk_macro")))
        layers[1][d] = nil
        layers[0][d] = .action(.momentaryLayer(1))
        let pull = DevicePull(device: DeviceKeymap(layers: layers), layout: layout, layerCount: 2, macros: [:])
        #expect(pull.unknown == 4)
        #expect(pull.layers == 2 && pull.deviceLayers == 2)
        #expect(pull.bindings == 2 * layout.keys.count)
        #expect(pull.keymap.action(layer: 0, key: a) == KeyAction.none)
        #expect(pull.keymap.action(layer: 0, key: b) == KeyAction.none)
        #expect(pull.keymap.action(layer: 1, key: c) == .transparent)
        #expect(pull.keymap.action(layer: 1, key: d) == .transparent)
        #expect(pull.keymap.action(layer: 0, key: d) == .momentaryLayer(1))
        // Against the defaults: a, b and d on layer 0 differ; layer 1's were transparent already.
        #expect(pull.changed(from: defaults, layout: layout) == 3)
        #expect(throws: Never.self) { try pull.keymap.validated(for: layout) }
    }

    @Test("a keyboard with fewer layers leaves the profile's layers above cleared; one with more is cut")
    func layerCounts() throws {
        let layout = try Self.layout()
        let device = Keymap(defaultsFor: layout, layerCount: 2)
        let deviceLayers = device.layers.map { $0.mapValues { DeviceKeymap.Binding.action($0) } }
        let fewer = DevicePull(device: DeviceKeymap(layers: deviceLayers), layout: layout, layerCount: 4, macros: [:])
        #expect(fewer.layers == 2 && fewer.deviceLayers == 2 && fewer.keymap.layerCount == 4)
        #expect(fewer.keymap.action(layer: 3, key: layout.keys[0].name) == .transparent)
        #expect(fewer.unknown == 0)
        let more = DevicePull(device: DeviceKeymap(layers: deviceLayers), layout: layout, layerCount: 1, macros: [:])
        #expect(more.layers == 1 && more.deviceLayers == 2 && more.keymap.layerCount == 1)
        #expect(more.bindings == layout.keys.count)
    }

    @Test("a key playing a VIA macro slot takes the profile's name for the same macro, else M<slot>")
    func macroNames() throws {
        let layout = try Self.layout()
        let defaults = Keymap(defaultsFor: layout, layerCount: 1)
        var layers = defaults.layers.map { $0.mapValues { DeviceKeymap.Binding.action($0) } }
        let hi = try Macro(parsing: "text 'Hi'")
        let ok = try Macro(parsing: "text 'OK'")
        layers[0][layout.keys[0].name] = .macroSlot(0)
        layers[0][layout.keys[1].name] = .macroSlot(2)
        let macros = DeviceMacros(
            slots: [.macro(hi.normalized()), .empty, .macro(ok.normalized())], capacity: 64, storage: [])
        let name = try MacroName("greet")
        let pull = DevicePull(
            device: DeviceKeymap(layers: layers, macros: macros), layout: layout, layerCount: 1, macros: [name: hi])
        #expect(pull.keymap.action(layer: 0, key: layout.keys[0].name) == .macro(name))
        #expect(pull.keymap.action(layer: 0, key: layout.keys[1].name) == .macro(try MacroName("M2")))
        #expect(pull.macros == 2 && pull.unknown == 0)
        #expect(Set(pull.keymap.macros.keys.map(\.rawValue)) == ["greet", "M2"])
    }
}
