/// What one operation changed, old and new values side by side, so that undo and redo restore exactly.
struct EditChange: Hashable, Sendable {
    struct Binding: Hashable, Sendable {
        var layer: Int
        var key: KeyName
        var old: KeyAction
        var new: KeyAction
    }

    struct MacroChange: Hashable, Sendable {
        var name: MacroName
        var old: Macro?
        var new: Macro?
    }

    /// A layer's name before and after (nil: none).
    struct NameChange: Hashable, Sendable {
        var layer: Int
        var old: LayerName?
        var new: LayerName?
    }

    /// The draft's layer count before and after, when the edit changes it.
    struct LayerCountChange: Hashable, Sendable {
        var old: Int
        var new: Int
    }

    var bindings: [Binding] = []
    var macros: [MacroChange] = []
    var layerCount: LayerCountChange?
    var names: [NameChange] = []

    var isEmpty: Bool { bindings.isEmpty && macros.isEmpty && layerCount == nil && names.isEmpty }

    /// About how many bytes the change takes in memory: 32 per binding (as ``Keymap/estimatedSize`` counts a keymap's),
    /// the text of its macros, old and new, and its names. A layer move or copy on a keymap of many different layers
    /// changes thousands of bindings with one small operation, so the log measures what each edit changed too.
    var estimatedSize: Int {
        let macroText = macros.reduce(0) { total, change in
            total + 40 + (change.old?.description.utf8.count ?? 0) + (change.new?.description.utf8.count ?? 0)
        }
        return bindings.count * 32 + macroText + names.count * 64
    }

    /// The change that undoes this one.
    var reversed: EditChange {
        EditChange(
            bindings: bindings.reversed().map { Binding(layer: $0.layer, key: $0.key, old: $0.new, new: $0.old) },
            macros: macros.reversed().map { MacroChange(name: $0.name, old: $0.new, new: $0.old) },
            layerCount: layerCount.map { LayerCountChange(old: $0.new, new: $0.old) },
            names: names.reversed().map { NameChange(layer: $0.layer, old: $0.new, new: $0.old) })
    }
}

/// An operation with the change it made, as the session's log keeps it.
struct LoggedEdit: Hashable, Sendable {
    var operation: EditOperation
    var change: EditChange
    /// About how many bytes the edit takes: the operation in a saved profile (``EditOperation/estimatedSize``) and the
    /// change in memory (``EditChange/estimatedSize``).
    var size: Int

    init(operation: EditOperation, change: EditChange) {
        self.operation = operation
        self.change = change
        self.size = operation.estimatedSize + change.estimatedSize
    }
}
