import KeyboardLinkKeymap

/// A keyboard's keymap as `org.kblink1.Keymap.Pull` stages it in the draft: the keymap model's view of what the
/// keyboard holds, on the profile's layers, and what could not be carried over.
///
/// A binding the model cannot express (`DeviceKeymap.Binding.other`, a key the keyboard did not report, a layer
/// switch to a layer the profile lacks, a ZMK macro behaviour the profile does not define) becomes the layer's
/// cleared action (nothing on layer 0, transparent above) and is counted in `unknown`.
package struct DevicePull: Sendable, Equatable {
    /// The keymap to stage: `layers` layers, the profile's macros plus the keyboard's macro slots that keys play
    /// (named after the profile's macro with the same content, else `M<slot>`).
    package var keymap: Keymap
    /// The layers pulled: the profile's layer count, or the keyboard's when it holds fewer (the profile's layers
    /// above are then cleared).
    package var layers: Int
    /// The layers the keyboard holds.
    package var deviceLayers: Int
    /// The bindings read (layers pulled times the layout's keys).
    package var bindings: Int
    /// Bindings the keymap model cannot express, pulled as the layer's cleared action.
    package var unknown: Int
    /// The macros the pulled bindings play.
    package var macros: Int

    /// Converts what a keyboard holds for a profile with `layerCount` layers and the macros `macros`.
    /// - Parameter names: the layer names to keep when the keyboard holds none (VIA); a keyboard's own names (ZMK
    ///   Studio) win, those kblink cannot hold (``LayerName``) read as none.
    package init(
        device: DeviceKeymap, layout: PhysicalLayout, layerCount: Int, macros: [MacroName: Macro],
        names: [Int: LayerName] = [:]
    ) {
        let converted = device.keymap(macros: macros)
        let count = max(layerCount, 1)
        var layers: [[KeyName: KeyAction]] = []
        var unknown = 0
        var played = Set<MacroName>()
        for layer in 0..<count {
            var bindings: [KeyName: KeyAction] = [:]
            for key in layout.keys {
                let cleared = Keymap.clearedAction(layer: layer)
                guard layer < device.layers.count else {
                    bindings[key.name] = cleared
                    continue
                }
                let known: Bool
                switch device.layers[layer][key.name] {
                case .other?, nil: known = false
                default: known = true
                }
                guard known, let action = converted.action(layer: layer, key: key.name),
                    Self.fits(action, layerCount: count, macros: converted.macros)
                else {
                    bindings[key.name] = cleared
                    unknown += 1
                    continue
                }
                if let name = action.referencedMacro { played.insert(name) }
                bindings[key.name] = action
            }
            layers.append(bindings)
        }
        var layerNames = names
        if let held = device.layerNames {
            layerNames = [:]
            for (layer, text) in held.enumerated() { layerNames[layer] = try? LayerName.optional(text) }
        }
        self.keymap = Keymap(layers: layers, macros: converted.macros, layerNames: layerNames)
        self.layers = min(count, device.layers.count)
        self.deviceLayers = device.layers.count
        self.bindings = self.layers * layout.keys.count
        self.unknown = unknown
        self.macros = played.count
    }

    /// Whether a profile with `layerCount` layers and `macros` can hold `action`.
    private static func fits(_ action: KeyAction, layerCount: Int, macros: [MacroName: Macro]) -> Bool {
        if let layer = action.referencedLayer, !(0..<layerCount).contains(layer) { return false }
        if let macro = action.referencedMacro, macros[macro] == nil { return false }
        return true
    }

    /// The bindings of the layout whose action in `draft` differs from the pulled one (a missing binding counts
    /// as the layer's cleared action), on the pulled keymap's layers.
    package func changed(from draft: Keymap, layout: PhysicalLayout) -> Int {
        var count = 0
        for layer in 0..<keymap.layerCount {
            let cleared = Keymap.clearedAction(layer: layer)
            for key in layout.keys
            where (draft.action(layer: layer, key: key.name) ?? cleared)
                != (keymap.action(layer: layer, key: key.name) ?? cleared)
            {
                count += 1
            }
        }
        return count
    }
}
