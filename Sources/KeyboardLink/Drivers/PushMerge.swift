import KeyboardLinkKeymap

/// The three-way merge behind a push: what the keyboard should hold, given the base (what kblinkd last read from
/// or wrote to the keyboard), the draft (the base plus the user's edits) and what the keyboard holds now.
///
/// Per key and layer, with `b` the base's action, `d` the draft's and `k` the keyboard's:
/// - `d == b` (the user did not edit it): the keyboard's `k` stays. When `k != b` the keyboard changed it by itself
///   (another tool, the firmware's own editor): it is kept, listed in `kept` and adopted into the next base.
/// - `d != b` (the user edited it, or edited the macro it plays): `d` is written when `k == b` or `k == d`; when
///   the keyboard changed it too, to something else, it is a conflict: listed, and resolved by `resolution`.
///
/// A binding the keymap model cannot express (a ZMK behaviour kblink does not know) reads as the layer's cleared
/// action, as it did when the base was read; it is never written over unless the user edited that key.
/// Layers follow the keys: the keyboard's layers stay, a layer the draft binds keys on that the keyboard lacks is
/// added (`DriverPush`), layers the user removed from the draft are removed (where the firmware can), and layers the
/// keyboard gained by itself are kept. Layer names the user changed are written; the keyboard's others stay.
package struct PushMerge: Sendable, Equatable {
    /// How a conflict (a key both the user and the keyboard changed, differently) is resolved.
    package enum Resolution: String, Sendable, Equatable {
        /// The push stops, naming the conflicts.
        case stop
        /// The keyboard's binding stays; the user's edit of that key is dropped.
        case keepKeyboard = "keep-keyboard"
        /// The draft's binding is written.
        case overwrite
    }

    /// One key whose binding the base, the draft and the keyboard disagree on.
    package struct Difference: Sendable, Equatable, CustomStringConvertible {
        /// The layer.
        package var layer: Int
        /// The key.
        package var key: KeyName
        /// What the base holds.
        package var base: KeyAction
        /// What the draft holds.
        package var draft: KeyAction
        /// What the keyboard holds now.
        package var keyboard: DeviceKeymap.Binding

        /// Creates a difference.
        package init(layer: Int, key: KeyName, base: KeyAction, draft: KeyAction, keyboard: DeviceKeymap.Binding) {
            self.layer = layer
            self.key = key
            self.base = base
            self.draft = draft
            self.keyboard = keyboard
        }

        package var description: String {
            "\(key) on layer \(layer) (was \(base), the draft has \(draft), the keyboard has \(keyboard))"
        }
    }

    /// What the keyboard should hold once pushed: the keyboard's keymap with the user's edits in place (macros:
    /// the keyboard's, the draft's where it defines them).
    package var desired: Keymap
    /// The keys to write where the keyboard differs from `desired` (every other key is left as the keyboard has
    /// it); nil writes every key that differs (`--overwrite`).
    package var edited: Set<KeyPosition>?
    /// Keys the keyboard changed by itself, kept (and keys of a conflict resolved `keepKeyboard`).
    package var kept: [Difference]
    /// Keys both sides changed, differently; resolved as `resolution` says (with `.stop` the push stops).
    package var conflicts: [Difference]

    /// A key on a layer.
    package struct KeyPosition: Sendable, Hashable {
        /// The layer.
        package var layer: Int
        /// The key.
        package var key: KeyName

        /// Creates a position.
        package init(layer: Int, key: KeyName) {
            self.layer = layer
            self.key = key
        }
    }

    /// Merges `draft` (edited from `base`) with what the keyboard holds.
    /// - Parameter resolution: `.overwrite` makes the keyboard equal to the whole draft (no merge; `kept` and
    ///   `conflicts` stay empty).
    package init(
        base: Keymap, draft: Keymap, device: DeviceKeymap, layout: PhysicalLayout, resolution: Resolution = .stop
    ) {
        guard resolution != .overwrite else {
            desired = draft
            edited = nil
            kept = []
            conflicts = []
            return
        }
        // The keyboard in the model's terms, its macro slots named after the base's macros with the same steps, so
        // that a macro the keyboard still holds as the base had it reads under the base's name.
        let keyboard = DevicePull(
            device: device, layout: layout, layerCount: max(device.layers.count, 1), macros: base.macros,
            names: base.layerNames
        ).keymap
        let editedMacros = Set(
            Set(base.macros.keys).union(draft.macros.keys).filter { base.macros[$0] != draft.macros[$0] })
        // Layers the user removed from the draft go from the keyboard too; layers it gained by itself stay.
        let removed = max(0, base.layerCount - draft.layerCount)
        let layerCount = max(keyboard.layerCount - removed, draft.layerCount)
        var desired = keyboard.resized(toLayerCount: layerCount, for: layout)
        var edited = Set<KeyPosition>()
        var kept: [Difference] = []
        var conflicts: [Difference] = []
        for layer in 0..<draft.layerCount {
            let cleared = Keymap.clearedAction(layer: layer)
            for key in layout.keys {
                let b = base.action(layer: layer, key: key.name) ?? cleared
                let d = draft.action(layer: layer, key: key.name) ?? cleared
                let k = keyboard.action(layer: layer, key: key.name) ?? cleared
                let binding = device.binding(layer: layer, key: key.name) ?? .action(cleared)
                let userEdited = d != b || d.referencedMacro.map(editedMacros.contains) == true
                let difference = Difference(layer: layer, key: key.name, base: b, draft: d, keyboard: binding)
                if !userEdited {
                    if k != b && layer < base.layerCount { kept.append(difference) }
                    continue
                }
                if k == b || k == d {
                    desired.setAction(d, layer: layer, key: key.name)
                    edited.insert(KeyPosition(layer: layer, key: key.name))
                    continue
                }
                switch resolution {
                case .keepKeyboard:
                    kept.append(difference)
                case .stop, .overwrite:
                    conflicts.append(difference)
                }
            }
        }
        // Names the user gave win; the keyboard's stay where the user did not rename.
        for layer in 0..<min(draft.layerCount, layerCount) where draft.layerName(layer) != base.layerName(layer) {
            desired.setLayerName(draft.layerName(layer), layer: layer)
        }
        // The draft's macros win where it defines them; the keyboard's other macros stay for the keys that play them.
        for (name, macro) in draft.macros { desired.macros[name] = macro }
        self.desired = desired
        self.edited = edited
        self.kept = kept
        self.conflicts = conflicts
    }

    /// Whether a write of `position` belongs to the merge.
    func writes(_ position: KeyPosition) -> Bool {
        edited?.contains(position) ?? true
    }
}
