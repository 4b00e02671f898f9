extension KeymapEditSession {
    /// What differs from the base: draft edits (origin `draft`), then keys where the keyboard holds something
    /// else than the base and the draft does not change them (origin `device`). Sorted by zone, layer and the
    /// keys' reading order.
    package func diff() -> [KeymapDiffEntry] {
        var entries: [KeymapDiffEntry] = []
        for zone in layout.zones {
            guard let keys = try? layout.keys(in: zone) else { continue }
            for layer in 0..<layerCount {
                let draft = draft(zone: zone, layer: layer)
                for key in keys {
                    let old = baseAction(layer: layer, key: key.name)
                    if let new = draft[key.name] {
                        entries.append(
                            KeymapDiffEntry(zone: zone, layer: layer, key: key.name, old: old, new: new, origin: .draft)
                        )
                    } else if let device = deviceKeymap?.action(layer: layer, key: key.name), device != old {
                        entries.append(
                            KeymapDiffEntry(
                                zone: zone, layer: layer, key: key.name, old: old, new: device, origin: .device))
                    }
                }
            }
        }
        return entries
    }

    /// The macros the draft adds, changes or removes, by name.
    package func macroDiff() -> [MacroDiffEntry] {
        let current = macros
        return Set(base.macros.keys).union(current.keys).sorted().compactMap { name in
            let old = base.macros[name]
            let new = current[name]
            return old == new ? nil : MacroDiffEntry(name: name, old: old, new: new)
        }
    }
}
