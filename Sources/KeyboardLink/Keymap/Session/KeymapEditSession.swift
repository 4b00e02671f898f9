/// The edit session of one keyboard: a base keymap (what the keyboard holds, or what was pushed last), a draft
/// kept per zone and layer, the zone on show, and an operation log with undo and redo.
///
/// Switching `currentZone` only changes what is shown; every zone's draft stays. Every change goes through
/// `apply(_:)` (or the shorthands `setBinding`, `clearZone`, ...), which validates it, records what it changed in
/// the log, and leaves the session untouched when it throws. A value type: hold it where the daemon keeps its
/// state and mutate it in place.
package struct KeymapEditSession: Sendable {
    /// The keyboard's layout.
    package let layout: PhysicalLayout
    /// The keymap the draft is measured against: the keyboard's, or the last pushed.
    package private(set) var base: Keymap
    /// What the keyboard was last read to hold, when that differs from the base.
    package private(set) var deviceKeymap: Keymap?
    /// The zone the editor shows.
    package private(set) var currentZone: ZoneID

    var log = OperationLog<LoggedEdit>()
    /// Per zone and layer, the keys whose draft action differs from the base.
    private var drafts: [ZoneSlot: [KeyName: KeyAction]] = [:]
    /// Macros whose draft differs from the base; a nil value is a removed macro.
    private var macroDrafts: [MacroName: Macro?] = [:]
    /// The draft's layer count when it differs from the base's.
    private var draftLayerCount: Int?
    /// Layer names whose draft differs from the base; a nil value is a cleared name.
    private var nameDrafts: [Int: LayerName?] = [:]

    /// Starts a session with an empty draft.
    /// - Parameter base: checked against the layout; keys it lacks are filled with cleared actions.
    /// - Throws: `KeymapError` when the base does not fit the layout.
    package init(layout: PhysicalLayout, base: Keymap) throws(KeymapError) {
        self.layout = layout
        self.base = try base.validated(for: layout)
        self.currentZone = layout.zones.first ?? .standard
    }

    /// Restores a session saved as a draft record: replays its applied operations onto the base and rebuilds the
    /// redo tail.
    /// - Throws: `KeymapError` when the base does not fit the layout or an applied operation no longer applies.
    ///   Redo entries that no longer apply are dropped instead.
    package init(layout: PhysicalLayout, base: Keymap, draft: DraftRecord) throws(KeymapError) {
        try self.init(layout: layout, base: base)
        if layout.zones.contains(draft.currentZone) { currentZone = draft.currentZone }
        let cursor = min(max(draft.cursor, 0), draft.operations.count)
        for (index, operation) in draft.operations.enumerated() {
            do {
                try record(operation)
            } catch {
                if index < cursor {
                    throw .invalidProfile(
                        "saved edit \(index + 1) (\(operation)) no longer applies: \(error.description)")
                }
                break
            }
        }
        while log.cursor > cursor { try undo() }
        // A record saved before the log was bounded (or with other bounds) is bounded now, the draft unchanged.
        boundLog()
    }

    // MARK: State

    /// The number of layers of the draft (the base's unless an edit added or removed layers).
    package var layerCount: Int { draftLayerCount ?? base.layerCount }

    /// The zones of the layout.
    package var zones: [ZoneID] { layout.zones }

    /// Shows another zone; the drafts of all zones stay as they are.
    /// - Throws: `KeymapError.zoneNotInLayout`.
    package mutating func selectZone(_ zone: ZoneID) throws(KeymapError) {
        guard layout.zones.contains(zone) else {
            throw .zoneNotInLayout(zone: zone.rawValue, layout: layout.id.rawValue, available: zones.map(\.rawValue))
        }
        currentZone = zone
    }

    /// What a key does in the draft.
    /// - Throws: `KeymapError.layerOutOfRange` or `.unknownKey`.
    package func action(layer: Int, key: KeyName) throws(KeymapError) -> KeyAction {
        try checkLayer(layer)
        let physical = try layout.key(named: key)
        return effectiveAction(layer: layer, key: physical.name, zone: physical.zone)
    }

    /// The bindings of a zone on a layer, in reading order, with whether the draft changed each.
    package func bindings(zone: ZoneID, layer: Int) throws(KeymapError) -> [KeyBinding] {
        try checkLayer(layer)
        let slot = ZoneSlot(zone, layer: layer)
        return try layout.keys(in: zone).map { key in
            let draft = drafts[slot]?[key.name]
            return KeyBinding(
                key: key.name, action: draft ?? baseAction(layer: layer, key: key.name), isChanged: draft != nil)
        }
    }

    /// The draft of one zone on one layer: only the keys it changes, with their new actions.
    package func draft(zone: ZoneID, layer: Int) -> [KeyName: KeyAction] {
        drafts[ZoneSlot(zone, layer: layer)] ?? [:]
    }

    /// The macros of the draft.
    package var macros: [MacroName: Macro] {
        var result = base.macros
        for (name, macro) in macroDrafts { result[name] = macro }
        return result
    }

    /// The whole draft as a keymap: what a push would write.
    package var draftKeymap: Keymap {
        var keymap = base.resized(toLayerCount: layerCount, for: layout)
        for (slot, keys) in drafts where slot.layer < layerCount {
            for (key, action) in keys { keymap.setAction(action, layer: slot.layer, key: key) }
        }
        keymap.macros = macros
        for layer in 0..<layerCount { keymap.setLayerName(layerName(layer), layer: layer) }
        return keymap
    }

    /// A layer's name in the draft; nil when it has none.
    package func layerName(_ layer: Int) -> LayerName? {
        if let draft = nameDrafts[layer] { return draft }
        return base.layerName(layer)
    }

    /// Every layer's name in the draft, by layer (empty for a layer without one).
    package var layerNames: [String] { (0..<layerCount).map { layerName($0)?.rawValue ?? "" } }

    /// Whether the draft differs from the base.
    package var isDirty: Bool {
        !drafts.isEmpty || !macroDrafts.isEmpty || draftLayerCount != nil || !nameDrafts.isEmpty
    }
    /// Whether there is an edit to undo.
    package var canUndo: Bool { log.canUndo }
    /// Whether there is an undone edit to redo.
    package var canRedo: Bool { log.canRedo }

    /// The operation log (applied operations first, then the redo tail).
    package var operationLog: OperationLog<EditOperation> { log.map(\.operation) }

    /// The draft as saved: the operation log and the zone on show.
    package var draftRecord: DraftRecord {
        DraftRecord(currentZone: currentZone, operations: log.entries.map(\.operation), cursor: log.cursor)
    }

    // MARK: Editing

    /// Applies an edit and logs it, dropping the redo tail. An edit that changes nothing is not logged.
    /// - Returns: whether anything changed.
    /// - Throws: `KeymapError` when the edit is invalid; the session is then unchanged.
    /// The log keeps at most ``undoLimit`` edits and about ``undoByteBudget`` bytes of them: past either, the oldest
    /// edits are merged into one (see `KeymapEditSession+LogBound.swift`).
    @discardableResult
    package mutating func apply(_ operation: EditOperation) throws(KeymapError) -> Bool {
        guard try record(operation) else { return false }
        boundLog()
        return true
    }

    /// Applies and logs an edit like `apply(_:)` and returns what it changed (empty when nothing).
    mutating func applyReturningChange(_ operation: EditOperation) throws(KeymapError) -> EditChange {
        let edit = try changes(for: operation)
        guard !edit.isEmpty else { return edit }
        perform(edit)
        log.append(LoggedEdit(operation: operation, change: edit))
        boundLog()
        return edit
    }

    /// Applies and logs an edit without bounding the log (restoring a saved record bounds it once at the end).
    @discardableResult
    mutating func record(_ operation: EditOperation) throws(KeymapError) -> Bool {
        let edit = try changes(for: operation)
        guard !edit.isEmpty else { return false }
        perform(edit)
        log.append(LoggedEdit(operation: operation, change: edit))
        return true
    }

    /// Binds a key to an action on a layer.
    /// - Parameter zone: when given, the key must belong to it (a check for callers that edit zone by zone).
    @discardableResult
    package mutating func setBinding(key: KeyName, action: KeyAction, layer: Int, zone: ZoneID? = nil)
        throws(KeymapError) -> Bool
    {
        if let zone {
            let physical = try layout.key(named: key)
            guard physical.zone == zone else {
                throw .keyNotInZone(key: key.rawValue, zone: zone.rawValue, actualZone: physical.zone.rawValue)
            }
        }
        return try apply(.setBinding(layer: layer, key: key, action: action))
    }

    /// Clears a zone on a layer.
    @discardableResult
    package mutating func clearZone(_ zone: ZoneID, layer: Int) throws(KeymapError) -> Bool {
        try apply(.clearZone(zone, layer: layer))
    }

    /// Copies a zone from one layer to another.
    @discardableResult
    package mutating func copyZone(_ zone: ZoneID, from: Int, to: Int) throws(KeymapError) -> Bool {
        try apply(.copyZone(zone, from: from, to: to))
    }

    /// Swaps two zone slots of equal shape.
    @discardableResult
    package mutating func swapZones(_ first: ZoneSlot, _ second: ZoneSlot) throws(KeymapError) -> Bool {
        try apply(.swapZones(first, second))
    }

    /// Defines or replaces a macro.
    @discardableResult
    package mutating func setMacro(_ name: MacroName, _ macro: Macro) throws(KeymapError) -> Bool {
        try apply(.setMacro(name, macro))
    }

    /// Inserts a transparent layer at `index` (1 up to the layer count).
    @discardableResult
    package mutating func addLayer(_ index: Int) throws(KeymapError) -> Bool {
        try apply(.addLayer(index))
    }

    /// Removes layer `index` (not layer 0) when no other layer switches to it.
    @discardableResult
    package mutating func removeLayer(_ index: Int) throws(KeymapError) -> Bool {
        try apply(.removeLayer(index))
    }

    /// Names a layer, or (nil) clears its name.
    @discardableResult
    package mutating func renameLayer(_ index: Int, to name: LayerName?) throws(KeymapError) -> Bool {
        try apply(.renameLayer(index, name))
    }

    /// Moves layer `from` to index `to`; every layer switch follows its layer.
    @discardableResult
    package mutating func moveLayer(from: Int, to: Int) throws(KeymapError) -> Bool {
        try apply(.moveLayer(from: from, to: to))
    }

    /// Copies every binding of layer `from` onto layer `to`.
    @discardableResult
    package mutating func copyLayer(from: Int, to: Int) throws(KeymapError) -> Bool {
        try apply(.copyLayer(from: from, to: to))
    }

    /// Removes a macro no key is bound to.
    @discardableResult
    package mutating func removeMacro(_ name: MacroName) throws(KeymapError) -> Bool {
        try apply(.removeMacro(name))
    }

    /// Undoes the last applied edit.
    /// - Throws: `KeymapError.nothingToUndo`.
    package mutating func undo() throws(KeymapError) {
        guard let entry = log.undo() else { throw .nothingToUndo }
        perform(entry.change.reversed)
    }

    /// Redoes the last undone edit.
    /// - Throws: `KeymapError.nothingToRedo`.
    package mutating func redo() throws(KeymapError) {
        guard let entry = log.redo() else { throw .nothingToRedo }
        perform(entry.change)
    }

    /// Drops the draft as one more edit (one `undo()` brings it back): the session holds the base again.
    package mutating func discard() {
        do {
            try apply(.replaceKeymap(base))
        } catch {
            // The base fits its own layout, so this does not happen; drop the draft outright rather than keep it.
            clearDraft()
        }
    }

    /// Drops the draft and the operation log.
    private mutating func clearDraft() {
        drafts.removeAll()
        macroDrafts.removeAll()
        nameDrafts.removeAll()
        draftLayerCount = nil
        log.removeAll()
    }

    /// Records what the keyboard holds now, for `diff()` to list what differs from the base (origin `device`).
    /// - Throws: `KeymapError` when the keymap does not fit the layout.
    package mutating func setDeviceKeymap(_ keymap: Keymap?) throws(KeymapError) {
        deviceKeymap = try keymap.map { keymap throws(KeymapError) in try keymap.validated(for: layout) }
    }

    /// After a successful push: the draft becomes the base (and what the keyboard holds), the log starts afresh.
    package mutating func markPushed() {
        base = draftKeymap
        deviceKeymap = nil
        clearDraft()
    }

    /// After a successful merging push: `holding` (what the keyboard holds now: the user's edits written, the
    /// keyboard's own changes kept) becomes the base; the log starts afresh. Edits made while the push ran
    /// (where the draft now differs from `pushed`, the draft the push wrote) stay a draft on the new base, as one
    /// edit.
    /// - Throws: `KeymapError` when `holding` does not fit the layout; the session is then unchanged.
    package mutating func adoptPushed(holding: Keymap, pushed: Keymap) throws(KeymapError) {
        let current = draftKeymap
        var fresh = try KeymapEditSession(layout: layout, base: holding)
        fresh.currentZone = currentZone
        guard current != pushed else {
            self = fresh
            return
        }
        var later = fresh.base.resized(toLayerCount: current.layerCount, for: layout)
        for layer in 0..<current.layerCount {
            for key in layout.keys {
                let now = current.action(layer: layer, key: key.name)
                if now != pushed.action(layer: layer, key: key.name), let now {
                    later.setAction(now, layer: layer, key: key.name)
                }
            }
        }
        for name in Set(current.macros.keys).union(pushed.macros.keys) where current.macros[name] != pushed.macros[name]
        {
            later.macros[name] = current.macros[name]
        }
        for layer in 0..<current.layerCount where current.layerName(layer) != pushed.layerName(layer) {
            later.setLayerName(current.layerName(layer), layer: layer)
        }
        try fresh.apply(.replaceKeymap(later))
        self = fresh
    }

    /// Replays the applied operations onto a new base (a fresh read of the keyboard), keeping the redo tail where
    /// it still applies.
    /// - Throws: `KeymapError` when an applied operation does not apply to the new base; the session is then
    ///   unchanged.
    package mutating func rebase(onto newBase: Keymap) throws(KeymapError) {
        self = try KeymapEditSession(layout: layout, base: newBase, draft: draftRecord)
    }

    /// The keymap that replaying operations onto a base gives, without a session.
    package static func replay(_ operations: [EditOperation], onto base: Keymap, layout: PhysicalLayout)
        throws(KeymapError) -> Keymap
    {
        var session = try KeymapEditSession(layout: layout, base: base)
        for operation in operations { try session.apply(operation) }
        return session.draftKeymap
    }

    // MARK: Internals

    func checkLayer(_ layer: Int) throws(KeymapError) {
        guard (0..<layerCount).contains(layer) else { throw .layerOutOfRange(layer, layerCount: layerCount) }
    }

    func effectiveAction(layer: Int, key: KeyName, zone: ZoneID) -> KeyAction {
        drafts[ZoneSlot(zone, layer: layer)]?[key] ?? baseAction(layer: layer, key: key)
    }

    /// What the base does on a layer (the cleared action on layers the base does not have).
    func baseAction(layer: Int, key: KeyName) -> KeyAction {
        base.action(layer: layer, key: key) ?? Keymap.clearedAction(layer: layer)
    }

    /// Sets the draft's layer count, dropping the drafts of layers above it.
    private mutating func setLayerCount(_ count: Int) {
        draftLayerCount = count == base.layerCount ? nil : count
        drafts = drafts.filter { $0.key.layer < count }
        nameDrafts = nameDrafts.filter { $0.key < count }
    }

    mutating func perform(_ change: EditChange) {
        // Layers an edit adds exist before its bindings land; layers it removes go after (their bindings were
        // recorded, so that the reversed change restores them).
        if let counts = change.layerCount { setLayerCount(max(counts.old, counts.new)) }
        defer { if let counts = change.layerCount { setLayerCount(counts.new) } }
        for binding in change.bindings {
            guard let zone = layout.zone(of: binding.key) else { continue }
            let slot = ZoneSlot(zone, layer: binding.layer)
            if baseAction(layer: binding.layer, key: binding.key) == binding.new {
                drafts[slot]?[binding.key] = nil
                if drafts[slot]?.isEmpty == true { drafts[slot] = nil }
            } else {
                drafts[slot, default: [:]][binding.key] = binding.new
            }
        }
        for name in change.names {
            nameDrafts[name.layer] = base.layerName(name.layer) == name.new ? nil : .some(name.new)
        }
        for macro in change.macros {
            if base.macros[macro.name] == macro.new {
                macroDrafts[macro.name] = nil
            } else {
                macroDrafts[macro.name] = .some(macro.new)
            }
        }
    }
}
