/// The bindings of every layer and the macros: what a keyboard does, for one layout.
///
/// Layers are dense: every layer has an action for every key of the layout it was made for. Make one with
/// `Keymap(defaultsFor:)` or `Keymap(layers:macros:)` followed by `validated(for:)`.
package struct Keymap: Hashable, Sendable {
    /// Per layer, the action of every key.
    package private(set) var layers: [[KeyName: KeyAction]]
    /// The macros, by name.
    package var macros: [MacroName: Macro]
    /// The layers' names, by layer (a layer without a name has none here).
    package private(set) var layerNames: [Int: LayerName] = [:]

    /// The most layers a keymap may have (QMK's limit).
    package static let maximumLayers = 32

    /// Creates a keymap from its parts, unchecked; see `validated(for:)`.
    package init(layers: [[KeyName: KeyAction]], macros: [MacroName: Macro] = [:], layerNames: [Int: LayerName] = [:]) {
        self.layers = layers
        self.macros = macros
        self.layerNames = layerNames.filter { layers.indices.contains($0.key) }
    }

    /// The default keymap of a layout: layer 0 says what the keycaps say, the layers above are transparent.
    package init(defaultsFor layout: PhysicalLayout, layerCount: Int = 4) {
        let count = min(max(layerCount, 1), Self.maximumLayers)
        var layers: [[KeyName: KeyAction]] = []
        for layer in 0..<count {
            var bindings: [KeyName: KeyAction] = [:]
            for key in layout.keys { bindings[key.name] = layer == 0 ? key.defaultAction : .transparent }
            layers.append(bindings)
        }
        self.init(layers: layers)
    }

    /// The number of layers.
    package var layerCount: Int { layers.count }

    /// What a key does on a layer; nil when the layer or key is missing.
    package func action(layer: Int, key: KeyName) -> KeyAction? {
        guard layers.indices.contains(layer) else { return nil }
        return layers[layer][key]
    }

    /// A layer's name; nil when it has none or the layer is missing.
    package func layerName(_ layer: Int) -> LayerName? { layerNames[layer] }

    /// Names an existing layer, or (nil) clears its name; nothing happens for a layer that does not exist.
    package mutating func setLayerName(_ name: LayerName?, layer: Int) {
        guard layers.indices.contains(layer) else { return }
        layerNames[layer] = name
    }

    /// Sets what a key does on an existing layer (nothing happens for a layer that does not exist).
    package mutating func setAction(_ action: KeyAction, layer: Int, key: KeyName) {
        guard layers.indices.contains(layer) else { return }
        layers[layer][key] = action
    }

    /// This keymap with `count` layers: layers above are dropped, new layers hold the cleared action on every key of
    /// `layout`.
    package func resized(toLayerCount count: Int, for layout: PhysicalLayout) -> Keymap {
        var result = self
        if result.layers.count > count {
            result.layers.removeSubrange(count...)
            result.layerNames = result.layerNames.filter { $0.key < count }
        }
        while result.layers.count < count {
            let layer = result.layers.count
            result.layers.append(
                Dictionary(uniqueKeysWithValues: layout.keys.map { ($0.name, Self.clearedAction(layer: layer)) }))
        }
        return result
    }

    /// The action a layer gives keys that are cleared: nothing on layer 0, fall through above it.
    package static func clearedAction(layer: Int) -> KeyAction { layer == 0 ? .none : .transparent }

    /// This keymap checked against a layout, with keys the keymap lacks filled with cleared actions.
    /// - Throws: `KeymapError` for no layers or too many, keys the layout does not have, layer switches to layers
    ///   that do not exist, and bindings to macros that are not defined.
    package func validated(for layout: PhysicalLayout) throws(KeymapError) -> Keymap {
        guard (1...Self.maximumLayers).contains(layers.count) else {
            throw .invalidProfile("a keymap needs 1 to \(Self.maximumLayers) layers, this one has \(layers.count)")
        }
        var result = self
        for (layer, bindings) in layers.enumerated() {
            var isCanonical = bindings.count == layout.keys.count
            for (key, action) in bindings {
                if try layout.key(named: key).name != key { isCanonical = false }
                try Self.check(action, layerCount: layers.count, macros: macros)
            }
            // A layer that binds every key of the layout by its own name is kept as it is: it shares its storage
            // with the keymap it came from (every keyboard's session of a built-in layout shares its default keymap).
            if isCanonical { continue }
            var canonical: [KeyName: KeyAction] = [:]
            for (key, action) in bindings {
                // A key may be named by its keycap (`ENT` for `ENTER`); the keymap holds the key's own name.
                let name = try layout.key(named: key).name
                if canonical[name] == nil || name == key { canonical[name] = action }
            }
            for key in layout.keys where canonical[key.name] == nil {
                canonical[key.name] = Self.clearedAction(layer: layer)
            }
            result.layers[layer] = canonical
        }
        return result
    }

    /// Checks that an action only refers to layers and macros that exist.
    static func check(_ action: KeyAction, layerCount: Int, macros: [MacroName: Macro]) throws(KeymapError) {
        if let layer = action.referencedLayer, !(0..<layerCount).contains(layer) {
            throw .layerOutOfRange(layer, layerCount: layerCount)
        }
        if let macro = action.referencedMacro, macros[macro] == nil {
            throw .macroNotFound(macro.rawValue)
        }
    }

    /// The keys bound to a macro, as `layer/KEY` texts, in layer then key order.
    func keys(boundTo macro: MacroName) -> [String] {
        var result: [String] = []
        for (layer, bindings) in layers.enumerated() {
            for (key, action) in bindings.sorted(by: { $0.key < $1.key }) where action.referencedMacro == macro {
                result.append("\(key) on layer \(layer)")
            }
        }
        return result
    }
}
