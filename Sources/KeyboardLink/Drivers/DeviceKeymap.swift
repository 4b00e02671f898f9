/// A keymap as read from a keyboard: per layer, what each key of the layout does there.
///
/// A binding the keymap model cannot express (a ZMK behaviour kblink does not know, such as Bluetooth
/// profile selection) is kept as `.other` so that a push can tell it differs from what the profile wants.
public struct DeviceKeymap: Sendable, Hashable {
    /// What a key does on the keyboard.
    public enum Binding: Sendable, Hashable, CustomStringConvertible {
        /// An action the keymap model expresses.
        case action(KeyAction)
        /// Something else, described for people.
        case other(String)

        public var description: String {
            switch self {
            case .action(let action): action.description
            case .other(let text): text
            }
        }
    }

    /// Per layer, the binding of every key.
    public var layers: [[KeyName: Binding]]

    /// Creates a device keymap.
    public init(layers: [[KeyName: Binding]]) {
        self.layers = layers
    }

    /// The binding of a key on a layer; nil when either is missing.
    public func binding(layer: Int, key: KeyName) -> Binding? {
        guard layers.indices.contains(layer) else { return nil }
        return layers[layer][key]
    }

    /// The keymap model's view: `.other` bindings become `fallback(layer)` (nothing, or transparent above 0).
    public func keymap(macros: [MacroName: Macro] = [:]) -> Keymap {
        Keymap(
            layers: layers.enumerated().map { layer, bindings in
                bindings.mapValues { binding in
                    if case .action(let action) = binding { return action }
                    return Keymap.clearedAction(layer: layer)
                }
            },
            macros: macros)
    }
}
