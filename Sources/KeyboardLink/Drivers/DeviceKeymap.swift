import KeyboardLinkKeymap

/// A keymap as read from a keyboard: per layer, what each key of the layout does there, and the macros the
/// keyboard defines at run time.
///
/// A binding the keymap model cannot express (a ZMK behaviour kblink does not know, such as Bluetooth
/// profile selection) is kept as `.other` so that a push can tell it differs from what the profile wants.
package struct DeviceKeymap: Sendable, Hashable {
    /// What a key does on the keyboard.
    package enum Binding: Sendable, Hashable, CustomStringConvertible {
        /// An action the keymap model expresses.
        case action(KeyAction)
        /// Plays macro slot n of `DeviceKeymap.macros` (keyboards with runtime macros: VIA's `QK_MACRO_n`).
        case macroSlot(Int)
        /// Something else, described for people.
        case other(String)

        package var description: String {
            switch self {
            case .action(let action): action.description
            case .macroSlot(let slot): "macro slot \(slot)"
            case .other(let text): text
            }
        }
    }

    /// Per layer, the binding of every key.
    package var layers: [[KeyName: Binding]]
    /// The macros the keyboard defines at run time; nil for keyboards without runtime macros (ZMK), where a
    /// macro is a firmware behaviour bound by name (`.action(.macro(name))`).
    package var macros: DeviceMacros?
    /// How many more layers the firmware can add at run time (ZMK Studio's `available_layers`; 0 for VIA, whose
    /// layer count is fixed).
    package var addableLayers: Int
    /// Per layer, the name the keyboard holds (empty: none); nil for keyboards that hold no names (VIA).
    package var layerNames: [String]?
    /// Whether the firmware removes layers at run time (ZMK Studio's `remove_layer`).
    package var removesLayers: Bool

    /// Creates a device keymap.
    package init(
        layers: [[KeyName: Binding]], macros: DeviceMacros? = nil, addableLayers: Int = 0, layerNames: [String]? = nil,
        removesLayers: Bool = false
    ) {
        self.layers = layers
        self.macros = macros
        self.addableLayers = addableLayers
        self.layerNames = layerNames
        self.removesLayers = removesLayers
    }

    /// The binding of a key on a layer; nil when either is missing.
    package func binding(layer: Int, key: KeyName) -> Binding? {
        guard layers.indices.contains(layer) else { return nil }
        return layers[layer][key]
    }

    /// The keymap model's view: `.other` bindings become `fallback(layer)` (nothing, or transparent above 0);
    /// a key playing a macro slot becomes `.macro(name)`, the macro joining the result's macros.
    /// - Parameter macros: the profile's macros, kept in the result; a slot holding one of them (same canonical
    ///   form) takes its name, other slots are named `M<slot>` as VIA names them. A key playing an empty or
    ///   unreadable slot keeps its QMK keycode (`QMK(0x7700 + slot)`).
    package func keymap(macros: [MacroName: Macro] = [:]) -> Keymap {
        let names = slotNames(profile: macros)
        var result = macros
        for (slot, name) in names {
            if case .macro(let macro)? = self.macros?.slots[slot], result[name] == nil { result[name] = macro }
        }
        return Keymap(
            layers: layers.enumerated().map { layer, bindings in
                bindings.mapValues { binding in
                    switch binding {
                    case .action(let action):
                        return action
                    case .macroSlot(let slot):
                        if let name = names[slot] { return .macro(name) }
                        return .qmkKeycode(KeyAction.qmkMacroBase &+ UInt16(truncatingIfNeeded: slot))
                    case .other:
                        return Keymap.clearedAction(layer: layer)
                    }
                }
            },
            macros: result)
    }

    /// Names for the slots keys play that hold a macro: the profile's name for the same macro (each name once,
    /// in name order), else `M<slot>` (with a suffix when the profile uses that name for another macro).
    private func slotNames(profile: [MacroName: Macro]) -> [Int: MacroName] {
        guard let slots = macros?.slots else { return [:] }
        var played = Set<Int>()
        for bindings in layers {
            for case .macroSlot(let slot) in bindings.values where slots.indices.contains(slot) {
                played.insert(slot)
            }
        }
        var names: [Int: MacroName] = [:]
        var used = Set<MacroName>()
        let candidates = profile.sorted { $0.key < $1.key }.map { ($0.key, $0.value.normalized()) }
        for slot in played.sorted() {
            guard case .macro(let macro) = slots[slot] else { continue }
            if let (name, _) = candidates.first(where: { !used.contains($0.0) && $0.1 == macro }) {
                names[slot] = name
                used.insert(name)
                continue
            }
            var suffix = 0
            while true {
                let text = suffix == 0 ? "M\(slot)" : "M\(slot)_\(suffix)"
                // "M" followed by digits and "_" is always a valid name.
                if let name = try? MacroName(text), profile[name] == nil, !used.contains(name) {
                    names[slot] = name
                    used.insert(name)
                    break
                }
                suffix += 1
            }
        }
        return names
    }
}
