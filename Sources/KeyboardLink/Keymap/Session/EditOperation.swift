/// One edit of a keymap session, as kept in the operation log and saved with the draft.
package enum EditOperation: Hashable, Sendable {
    /// Binds a key on a layer to an action.
    case setBinding(layer: Int, key: KeyName, action: KeyAction)
    /// Clears every key of a zone on a layer (nothing on layer 0, transparent above).
    case clearZone(ZoneID, layer: Int)
    /// Copies a zone's bindings from one layer to another.
    case copyZone(ZoneID, from: Int, to: Int)
    /// Swaps the bindings of two zone slots of equal shape (two zones, or one zone on two layers).
    case swapZones(ZoneSlot, ZoneSlot)
    /// Defines or replaces a macro.
    case setMacro(MacroName, Macro)
    /// Removes a macro that no key is bound to.
    case removeMacro(MacroName)
    /// Replaces every binding and macro with an imported profile's; a profile with fewer layers than the draft
    /// clears the layers above its own.
    case importProfile(Keymap)
    /// Sets the bindings and macros a profile names and leaves every other key, layer and macro as it is.
    case mergeProfile(Keymap)
    /// Replaces every binding and macro and takes the keymap's layer count (a pull: what the keyboard holds).
    case replaceKeymap(Keymap)
    /// Inserts a transparent layer at an index (1 up to the layer count); layer switches to it and above move up.
    case addLayer(Int)
    /// Removes a layer (not layer 0) that no other layer switches to; layer switches to layers above move down.
    case removeLayer(Int)
    /// Names a layer, or (nil) clears its name.
    case renameLayer(Int, LayerName?)
    /// Moves a layer to another index; the layers between shift by one, and every layer switch follows its layer.
    case moveLayer(from: Int, to: Int)
    /// Copies every binding of one layer onto another (the target's name stays).
    case copyLayer(from: Int, to: Int)
    /// Records a macro from input events: stored like `setMacro`, named apart so the log says where it came from.
    case recordMacro(MacroName, Macro)
}

extension EditOperation: CustomStringConvertible {
    /// A one-line description for logs and the CLI.
    package var description: String {
        switch self {
        case .setBinding(let layer, let key, let action): return "set \(key) on layer \(layer) to \(action)"
        case .clearZone(let zone, let layer): return "clear the \(zone) zone on layer \(layer)"
        case .copyZone(let zone, let from, let to): return "copy the \(zone) zone from layer \(from) to layer \(to)"
        case .swapZones(let first, let second): return "swap the \(first) with the \(second)"
        case .setMacro(let name, let macro): return "set macro \(name) to \(macro)"
        case .removeMacro(let name): return "remove macro \(name)"
        case .importProfile(let keymap):
            return "import a profile with \(keymap.layerCount) layers and \(keymap.macros.count) macros"
        case .recordMacro(let name, let macro): return "record macro \(name) as \(macro)"
        case .mergeProfile(let keymap):
            let keys = keymap.layers.reduce(0) { $0 + $1.count }
            return "merge a profile setting \(keys) key(s) and \(keymap.macros.count) macro(s)"
        case .replaceKeymap(let keymap):
            return "replace the keymap with \(keymap.layerCount) layers and \(keymap.macros.count) macros"
        case .addLayer(let layer): return "add layer \(layer)"
        case .removeLayer(let layer): return "remove layer \(layer)"
        case .renameLayer(let layer, let name):
            return name.map { "name layer \(layer) '\($0)'" } ?? "clear the name of layer \(layer)"
        case .moveLayer(let from, let to): return "move layer \(from) to \(to)"
        case .copyLayer(let from, let to): return "copy layer \(from) onto layer \(to)"
        }
    }
}
