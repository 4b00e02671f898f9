/// The session in the strings the `org.kblink1.Keymap` D-Bus interface and the CLI carry; every method validates
/// its text and throws a `KeymapError` that says what is wrong.
extension KeymapEditSession {
    /// `GetBindings(s zone, u layer) -> a(ss)`: key name and QMK-spelled action for each key of a zone.
    package func bindingTexts(zone: String, layer: Int) throws(KeymapError) -> [(key: String, action: String)] {
        try bindings(zone: try ZoneID(parsing: zone), layer: layer).map { ($0.key.rawValue, $0.action.description) }
    }

    /// `SetBinding(s zone, u layer, s key, s action)`: the action in any spelling; an empty zone accepts a key of
    /// any zone.
    /// - Returns: whether anything changed.
    @discardableResult
    package mutating func setBinding(zone: String, layer: Int, key: String, action: String) throws(KeymapError) -> Bool
    {
        let zoneID = zone.isEmpty ? nil : try ZoneID(parsing: zone)
        let physical = try layout.key(named: key)
        return try setBinding(key: physical.name, action: try KeyAction(parsing: action), layer: layer, zone: zoneID)
    }

    /// `SetBinding(s zone, u layer, s key, s action)`, answering the binding as stored: the key's zone and name as
    /// the layout resolved `key` (a keycap label names its key), the action in QMK spelling.
    package mutating func setBindingResolved(zone: String, layer: Int, key: String, action: String)
        throws(KeymapError) -> (zone: String, key: String, action: String)
    {
        let zoneID = zone.isEmpty ? nil : try ZoneID(parsing: zone)
        let physical = try layout.key(named: key)
        try setBinding(key: physical.name, action: try KeyAction(parsing: action), layer: layer, zone: zoneID)
        let stored = try self.action(layer: layer, key: physical.name)
        return (physical.zone.rawValue, physical.name.rawValue, stored.description)
    }

    /// Writing `CurrentZone`.
    package mutating func selectZone(named zone: String) throws(KeymapError) {
        try selectZone(try ZoneID(parsing: zone))
    }

    /// `SetMacro(s name, s definition)`.
    @discardableResult
    package mutating func setMacro(name: String, definition: String) throws(KeymapError) -> Bool {
        try setMacro(try MacroName(name), try Macro(parsing: definition))
    }

    /// `RemoveMacro(s name)`.
    @discardableResult
    package mutating func removeMacro(name: String) throws(KeymapError) -> Bool {
        try removeMacro(try MacroName(name))
    }

    /// The `Macros` property (`a{ss}`): name to definition text.
    package var macroTexts: [String: String] {
        Dictionary(uniqueKeysWithValues: macros.map { ($0.key.rawValue, $0.value.description) })
    }

    /// `Diff() -> a(sussss)`: zone, layer, key, old action, new action, origin (`draft` or `device`) for each
    /// binding; then a row per layer the draft adds or removes (zone `layer`, no key, old and new `layer N` or
    /// empty); then a row per macro the draft adds, changes or removes (zone `macro`, layer 0, the macro's name,
    /// old and new definition, empty when absent). Every row of a dirty draft has origin `draft`.
    package func diffTexts() -> [(zone: String, layer: Int, key: String, old: String, new: String, origin: String)] {
        var rows = diff().map {
            ($0.zone.rawValue, $0.layer, $0.key.rawValue, $0.old.description, $0.new.description, $0.origin.rawValue)
        }
        for layer in min(base.layerCount, layerCount)..<max(base.layerCount, layerCount) {
            let added = layer >= base.layerCount
            rows.append(("layer", layer, "", added ? "" : "layer \(layer)", added ? "layer \(layer)" : "", "draft"))
        }
        for layer in 0..<layerCount where layerName(layer) != base.layerName(layer) {
            rows.append(
                ("name", layer, "", base.layerName(layer)?.rawValue ?? "", layerName(layer)?.rawValue ?? "", "draft"))
        }
        for entry in macroDiff() {
            rows.append(
                (
                    "macro", 0, entry.name.rawValue, entry.old?.description ?? "", entry.new?.description ?? "",
                    "draft"
                ))
        }
        return rows
    }
}
