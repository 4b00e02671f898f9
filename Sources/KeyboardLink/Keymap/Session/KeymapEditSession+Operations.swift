extension KeymapEditSession {
    /// What an operation would change in the current draft, after checking it; nothing is modified.
    func changes(for operation: EditOperation) throws(KeymapError) -> EditChange {
        var change = EditChange()
        switch operation {
        case .setBinding(let layer, let key, let action):
            try checkLayer(layer)
            let physical = try layout.key(named: key)
            try Keymap.check(action, layerCount: layerCount, macros: macros)
            // The key's own name, also when it was named by its keycap (`ENT` for `ENTER`).
            addBinding(&change, layer: layer, key: physical.name, zone: physical.zone, to: action)

        case .clearZone(let zone, let layer):
            try checkLayer(layer)
            for key in try layout.keys(in: zone) {
                addBinding(&change, layer: layer, key: key.name, zone: zone, to: Keymap.clearedAction(layer: layer))
            }

        case .copyZone(let zone, let from, let to):
            try checkLayer(from)
            try checkLayer(to)
            guard from != to else {
                throw .invalidEdit("copying the \(zone) zone from layer \(from) onto itself changes nothing")
            }
            for key in try layout.keys(in: zone) {
                let action = effectiveAction(layer: from, key: key.name, zone: zone)
                addBinding(&change, layer: to, key: key.name, zone: zone, to: action)
            }

        case .swapZones(let first, let second):
            try checkLayer(first.layer)
            try checkLayer(second.layer)
            guard first != second else {
                throw .invalidEdit("swapping the \(first) with itself changes nothing")
            }
            for (keyA, keyB) in try layout.zoneCorrespondence(first.zone, second.zone) {
                let actionA = effectiveAction(layer: first.layer, key: keyA, zone: first.zone)
                let actionB = effectiveAction(layer: second.layer, key: keyB, zone: second.zone)
                addBinding(&change, layer: first.layer, key: keyA, zone: first.zone, to: actionB)
                addBinding(&change, layer: second.layer, key: keyB, zone: second.zone, to: actionA)
            }

        case .setMacro(let name, let macro), .recordMacro(let name, let macro):
            let old = macros[name]
            if old != macro {
                var after = macros
                after[name] = macro
                let text = Keymap(layers: [], macros: after).macroTextSize
                guard text <= Keymap.maximumMacroText else {
                    throw .invalidMacro(
                        "the keymap's macros would hold \(text) bytes of text; at most \(Keymap.maximumMacroText) "
                            + "(1 MiB) are allowed: shorten or remove macros")
                }
                change.macros.append(.init(name: name, old: old, new: macro))
            }

        case .removeMacro(let name):
            guard let old = macros[name] else { throw .macroNotFound(name.rawValue) }
            let bound = draftKeymap.keys(boundTo: name)
            guard bound.isEmpty else { throw .macroInUse(name.rawValue, boundTo: bound) }
            change.macros.append(.init(name: name, old: old, new: nil))

        case .importProfile(let keymap):
            guard keymap.layerCount <= layerCount else {
                throw .invalidProfile("the profile has \(keymap.layerCount) layers and this keyboard \(layerCount)")
            }
            var layers = keymap.layers
            while layers.count < layerCount { layers.append([:]) }
            try addReplacement(&change, Keymap(layers: layers, macros: keymap.macros))
            // Names are merged also by a replacing import: most files cannot say them (QMK, Vial).
            for (layer, name) in keymap.layerNames.sorted(by: { $0.key < $1.key }) {
                addName(&change, layer: layer, to: name)
            }

        case .replaceKeymap(let keymap):
            let target = try keymap.validated(for: layout)
            if target.layerCount != layerCount {
                change.layerCount = .init(old: layerCount, new: target.layerCount)
            }
            // The layers above the new count are recorded cleared, so that undo brings their bindings back.
            for layer in target.layerCount..<max(layerCount, target.layerCount) {
                for key in layout.keys {
                    addBinding(
                        &change, layer: layer, key: key.name, zone: key.zone, to: Keymap.clearedAction(layer: layer))
                }
            }
            try addReplacement(&change, target, layers: target.layerCount)
            for layer in 0..<max(layerCount, target.layerCount) {
                addName(&change, layer: layer, to: target.layerName(layer))
            }

        case .mergeProfile(let keymap):
            guard keymap.layerCount <= layerCount else {
                throw .invalidProfile(
                    "the profile has \(keymap.layerCount) layers and this keyboard \(layerCount) (add layers with "
                        + "'kblink keymap layer add' first)")
            }
            var after = macros
            for (name, macro) in keymap.macros { after[name] = macro }
            guard Keymap(layers: [], macros: after).macroTextSize <= Keymap.maximumMacroText else {
                throw .invalidProfile(
                    "the macros would hold more than \(Keymap.maximumMacroText) bytes (1 MiB) of text")
            }
            for (layer, bindings) in keymap.layers.enumerated() {
                for (key, action) in bindings.sorted(by: { $0.key < $1.key }) {
                    let physical = try layout.key(named: key)
                    try Keymap.check(action, layerCount: layerCount, macros: after)
                    addBinding(&change, layer: layer, key: physical.name, zone: physical.zone, to: action)
                }
            }
            for name in keymap.macros.keys.sorted() where macros[name] != keymap.macros[name] {
                change.macros.append(.init(name: name, old: macros[name], new: keymap.macros[name]))
            }
            for (layer, name) in keymap.layerNames.sorted(by: { $0.key < $1.key }) {
                addName(&change, layer: layer, to: name)
            }

        case .addLayer(let index):
            guard (1...layerCount).contains(index) else {
                throw .invalidEdit("a layer can be added at 1 to \(layerCount) (layer 0 stays the base layer)")
            }
            guard layerCount < Keymap.maximumLayers else {
                throw .invalidEdit("a keymap holds at most \(Keymap.maximumLayers) layers")
            }
            let count = layerCount + 1
            change.layerCount = .init(old: layerCount, new: count)
            for layer in 0..<count {
                for key in layout.keys {
                    let action: KeyAction
                    if layer == index {
                        action = .transparent
                    } else {
                        let source = layer > index ? layer - 1 : layer
                        action = effectiveAction(layer: source, key: key.name, zone: key.zone).movingLayers(
                            from: index, by: 1)
                    }
                    addBinding(&change, layer: layer, key: key.name, zone: key.zone, to: action)
                }
                addName(&change, layer: layer, to: layer == index ? nil : layerName(layer > index ? layer - 1 : layer))
            }

        case .removeLayer(let index):
            guard layerCount > 1, (1..<layerCount).contains(index) else {
                throw .invalidEdit(
                    layerCount > 1
                        ? "layer \(index) cannot be removed: the layers are 0 to \(layerCount - 1) and layer 0 stays"
                        : "the keymap has only layer 0, which stays")
            }
            var switching: [String] = []
            for layer in 0..<layerCount where layer != index {
                for key in layout.keys
                where effectiveAction(layer: layer, key: key.name, zone: key.zone).layerReference == index {
                    switching.append("\(key.name) on layer \(layer)")
                }
            }
            guard switching.isEmpty else { throw .layerInUse(index, switchedBy: switching) }
            change.layerCount = .init(old: layerCount, new: layerCount - 1)
            for layer in 0..<layerCount {
                for key in layout.keys {
                    let action: KeyAction
                    if layer == layerCount - 1 {
                        action = Keymap.clearedAction(layer: layer)
                    } else {
                        let source = layer >= index ? layer + 1 : layer
                        action = effectiveAction(layer: source, key: key.name, zone: key.zone).movingLayers(
                            from: index + 1, by: -1)
                    }
                    addBinding(&change, layer: layer, key: key.name, zone: key.zone, to: action)
                }
                addName(
                    &change, layer: layer,
                    to: layer == layerCount - 1 ? nil : layerName(layer >= index ? layer + 1 : layer))
            }

        case .renameLayer(let index, let name):
            try checkLayer(index)
            addName(&change, layer: index, to: name)

        case .moveLayer(let from, let to):
            try checkLayer(from)
            try checkLayer(to)
            guard from != to else { throw .invalidEdit("moving layer \(from) onto itself changes nothing") }
            // Where each layer goes: `from` to `to`, the layers between one step towards `from`'s old place.
            let destination: (Int) -> Int = { layer in
                if layer == from { return to }
                if from < to, layer > from, layer <= to { return layer - 1 }
                if to < from, layer >= to, layer < from { return layer + 1 }
                return layer
            }
            let source: (Int) -> Int = { layer in
                if layer == to { return from }
                if from < to, layer >= from, layer < to { return layer + 1 }
                if to < from, layer > to, layer <= from { return layer - 1 }
                return layer
            }
            for layer in 0..<layerCount {
                for key in layout.keys {
                    let action = effectiveAction(layer: source(layer), key: key.name, zone: key.zone)
                    addBinding(
                        &change, layer: layer, key: key.name, zone: key.zone, to: action.mappingLayers(destination))
                }
                addName(&change, layer: layer, to: layerName(source(layer)))
            }

        case .copyLayer(let from, let to):
            try checkLayer(from)
            try checkLayer(to)
            guard from != to else { throw .invalidEdit("copying layer \(from) onto itself changes nothing") }
            for key in layout.keys {
                let action = effectiveAction(layer: from, key: key.name, zone: key.zone)
                addBinding(&change, layer: to, key: key.name, zone: key.zone, to: action)
            }
        }
        return change
    }

    private func addName(_ change: inout EditChange, layer: Int, to name: LayerName?) {
        let old = layerName(layer)
        if old != name { change.names.append(.init(layer: layer, old: old, new: name)) }
    }

    /// Adds what replacing every binding of `layers` layers (all of the draft's by default) and every macro with
    /// `keymap`'s changes.
    private func addReplacement(_ change: inout EditChange, _ keymap: Keymap, layers: Int? = nil)
        throws(KeymapError)
    {
        let target = try keymap.validated(for: layout)
        guard target.macroTextSize <= Keymap.maximumMacroText else {
            throw .invalidProfile(
                "the profile's macros hold \(target.macroTextSize) bytes of text; at most "
                    + "\(Keymap.maximumMacroText) (1 MiB) are allowed")
        }
        for layer in 0..<(layers ?? layerCount) {
            for key in layout.keys {
                let action = target.action(layer: layer, key: key.name) ?? Keymap.clearedAction(layer: layer)
                addBinding(&change, layer: layer, key: key.name, zone: key.zone, to: action)
            }
        }
        let current = macros
        for name in Set(current.keys).union(target.macros.keys).sorted() where current[name] != target.macros[name] {
            change.macros.append(.init(name: name, old: current[name], new: target.macros[name]))
        }
    }

    private func addBinding(_ change: inout EditChange, layer: Int, key: KeyName, zone: ZoneID, to action: KeyAction) {
        let old = effectiveAction(layer: layer, key: key, zone: zone)
        if old != action { change.bindings.append(.init(layer: layer, key: key, old: old, new: action)) }
    }
}
