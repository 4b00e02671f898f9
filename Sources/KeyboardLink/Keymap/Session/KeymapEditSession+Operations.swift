extension KeymapEditSession {
    /// What an operation would change in the current draft, after checking it; nothing is modified.
    func changes(for operation: EditOperation) throws(KeymapError) -> EditChange {
        var change = EditChange()
        switch operation {
        case .setBinding(let layer, let key, let action):
            try checkLayer(layer)
            let physical = try layout.key(named: key)
            try Keymap.check(action, layerCount: layerCount, macros: macros)
            addBinding(&change, layer: layer, key: key, zone: physical.zone, to: action)

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
            let target = try Keymap(layers: layers, macros: keymap.macros).validated(for: layout)
            guard target.macroTextSize <= Keymap.maximumMacroText else {
                throw .invalidProfile(
                    "the profile's macros hold \(target.macroTextSize) bytes of text; at most "
                        + "\(Keymap.maximumMacroText) (1 MiB) are allowed")
            }
            for layer in 0..<layerCount {
                for key in layout.keys {
                    let action = target.layers[layer][key.name] ?? Keymap.clearedAction(layer: layer)
                    addBinding(&change, layer: layer, key: key.name, zone: key.zone, to: action)
                }
            }
            let current = macros
            for name in Set(current.keys).union(target.macros.keys).sorted() where current[name] != target.macros[name]
            {
                change.macros.append(.init(name: name, old: current[name], new: target.macros[name]))
            }
        }
        return change
    }

    private func addBinding(_ change: inout EditChange, layer: Int, key: KeyName, zone: ZoneID, to action: KeyAction) {
        let old = effectiveAction(layer: layer, key: key, zone: zone)
        if old != action { change.bindings.append(.init(layer: layer, key: key, old: old, new: action)) }
    }
}
