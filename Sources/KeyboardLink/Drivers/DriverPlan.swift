import KeyboardLinkKeymap

/// What a push writes to a keyboard: the layers to add first (ZMK Studio), its macro slots (keyboards with runtime
/// macros), then the bindings.
package struct DriverPlan: Sendable, Hashable {
    /// How many layers to add after the keyboard's last one before writing.
    package var addedLayers: Int
    /// How many of the keyboard's last layers to remove (ZMK Studio `remove_layer`), the draft having fewer.
    package var removedLayers = 0
    /// Layer names to set (ZMK Studio `set_layer_props`), by layer: where the draft names a layer otherwise.
    package var layerNames: [Int: LayerName] = [:]
    /// The macro slots to write; nil when every slot already holds what it should (or the keyboard has none).
    package var macros: DriverMacroWrite?
    /// The bindings to write, in layer then layout order.
    package var keys: [DriverKeyWrite]

    /// Creates a plan.
    package init(addedLayers: Int = 0, macros: DriverMacroWrite? = nil, keys: [DriverKeyWrite]) {
        self.addedLayers = addedLayers
        self.macros = macros
        self.keys = keys
    }

    /// Whether the push writes nothing.
    package var isEmpty: Bool {
        addedLayers == 0 && macros == nil && keys.isEmpty && removedLayers == 0 && layerNames.isEmpty
    }
}
