import Testing

@testable import KeyboardLink

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

    @Test("a binding kblink cannot name is rewritten; more layers than the keyboard has is NotSupported")
    func otherAndLayers() throws {
        let layout = try Self.layout()
        let desired = Keymap(defaultsFor: layout, layerCount: 2)
        var layers = desired.layers.map { $0.mapValues { DeviceKeymap.Binding.action($0) } }
        let key = layout.keys[0].name
        layers[0][key] = .other("\"Bluetooth\" 0 0")
        let writes = try DriverPush.plan(desired: desired, device: DeviceKeymap(layers: layers), layout: layout)
        #expect(writes.map(\.key) == [key])
        #expect(throws: DriverError.self) {
            try DriverPush.plan(desired: desired, device: DeviceKeymap(layers: [layers[0]]), layout: layout)
        }
    }
}
