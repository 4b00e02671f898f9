/// What importing a profile changed in the draft: the bindings and macros, and, for a replacing import, how many
/// keys it cleared because the profile leaves them out.
public struct ProfileImportSummary: Hashable, Sendable {
    /// One binding the import changed.
    public struct Binding: Hashable, Sendable {
        /// The layer.
        public var layer: Int
        /// The key.
        public var key: KeyName
        /// What the key did before.
        public var old: KeyAction
        /// What it does now.
        public var new: KeyAction
    }

    /// The bindings changed, in layer then reading order.
    public var bindings: [Binding]
    /// The macros added, changed or removed, by name.
    public var macros: [MacroDiffEntry]
    /// Keys the import cleared (nothing on layer 0, transparent above) because the profile leaves them out; only a
    /// replacing import clears keys.
    public var cleared: Int
    /// Whether the import replaced the whole keymap (`--replace`) rather than merging.
    public var replaced: Bool

    /// Whether the import changed nothing.
    public var isEmpty: Bool { bindings.isEmpty && macros.isEmpty }

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
