/// What importing a profile changed in the draft: the bindings and macros, and, for a replacing import, how many
/// keys it cleared because the profile leaves them out.
package struct ProfileImportSummary: Hashable, Sendable {
    /// One binding the import changed.
    package struct Binding: Hashable, Sendable {
        /// The layer.
        package var layer: Int
        /// The key.
        package var key: KeyName
        /// What the key did before.
        package var old: KeyAction
        /// What it does now.
        package var new: KeyAction
    }

    /// The bindings changed, in layer then reading order.
    package var bindings: [Binding]
    /// The macros added, changed or removed, by name.
    package var macros: [MacroDiffEntry]
    /// Keys the import cleared (nothing on layer 0, transparent above) because the profile leaves them out; only a
    /// replacing import clears keys.
    package var cleared: Int
    /// Whether the import replaced the whole keymap (`--replace`) rather than merging.
    package var replaced: Bool

    /// Whether the import changed nothing.
    package var isEmpty: Bool { bindings.isEmpty && macros.isEmpty }

    init(change: EditChange, document: Keymap, layout: PhysicalLayout, replaced: Bool) {
        bindings = change.bindings.map { Binding(layer: $0.layer, key: $0.key, old: $0.old, new: $0.new) }
            .sorted { ($0.layer, layout.order(of: $0.key)) < ($1.layer, layout.order(of: $1.key)) }
        macros = change.macros.map { MacroDiffEntry(name: $0.name, old: $0.old, new: $0.new) }
            .sorted { $0.name < $1.name }
        cleared =
            replaced
            ? change.bindings.filter { binding in
                binding.new == Keymap.clearedAction(layer: binding.layer)
                    && document.action(layer: binding.layer, key: binding.key) == nil
            }.count : 0
        self.replaced = replaced
    }
}
