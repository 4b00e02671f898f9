/// What the daemon keeps per keyboard: the base keymap and the draft (the operation log), so that a restart or a
/// crash never loses an edit.
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "address": "AA:BB:CC:DD:EE:FF",
///   "layout": "aula-f87",
///   "base": { "layers": [ { "A": "KC_A", ... } ], "macros": { } },
///   "draft": {
///     "currentZone": "number",
///     "cursor": 1,
///     "operations": [
///       { "op": "setBinding", "layer": 0, "key": "CAPS", "action": "KC_LCTL" },
///       { "op": "clearZone", "zone": "number", "layer": 1 }
///     ]
///   },
///   "baseOnDevice": true,
///   "baseOrigin": "pushed",
///   "baseSince": 1796183820,
///   "applyOnConnect": true,
///   "macroOwners": { "login": 1000 }
/// }
/// ```
///
/// `baseOnDevice` (the base was pushed to the keyboard and verified there) and `applyOnConnect` (re-apply the
/// base at each connection when the keyboard drifted from it) are written only when true; a profile without them
/// (older kblink) reads as false for both. `baseOrigin` says where the base came from (`default`: kblink's
/// default keymap for the layout, `keyboard`: read from the keyboard, `pushed`) and `baseSince` when (seconds
/// since 1970); without them (older kblink) the base is `pushed` when `baseOnDevice` says so, else `default`, and
/// an origin this kblink does not know reads as `default` (the keyboard is read again, nothing is lost).
/// `macroOwners` names the uid of the user who set each macro (written only when one has an owner).
///
/// Operations: `setBinding` (layer, key, action), `clearZone` (zone, layer), `copyZone` (zone, from, to),
/// `swapZones` (first and second: {zone, layer}), `setMacro` and `recordMacro` (name, definition), `removeMacro`
/// (name), `importProfile`, `mergeProfile` and `replaceKeymap` (keymap: {layers, macros}), `addLayer` and
/// `removeLayer` (layer), `renameLayer` (layer, name: empty clears it), `moveLayer` and `copyLayer` (from, to). A
/// keymap may name its layers (`layerNames`: per layer, empty for none; absent in older profiles). `cursor` counts the applied operations; the rest is the
/// redo tail.
package struct StoredProfile: Hashable, Sendable {
    /// The keyboard.
    package var address: KeyboardAddress
    /// Its layout.
    package var layout: LayoutID
    /// The keymap the draft applies to.
    package var base: Keymap
    /// The draft.
    package var draft: DraftRecord
    /// What the daemon keeps about the keyboard besides the keymap (apply on connect).
    package var settings: ProfileSettings

    /// Creates a stored profile.
    package init(
        address: KeyboardAddress, layout: LayoutID, base: Keymap, draft: DraftRecord,
        settings: ProfileSettings = ProfileSettings()
    ) {
        self.address = address
        self.layout = layout
        self.base = base
        self.draft = draft
        self.settings = settings
    }

    /// What to store for a session.
    package init(address: KeyboardAddress, session: KeymapEditSession, settings: ProfileSettings = ProfileSettings()) {
        self.init(
            address: address, layout: session.layout.id, base: session.base, draft: session.draftRecord,
            settings: settings)
    }

    /// The session this profile describes, replayed onto its base.
    /// - Throws: `KeymapError` when the layout is not the profile's or the draft does not replay.
    package func session(layout physical: PhysicalLayout) throws(KeymapError) -> KeymapEditSession {
        guard physical.id == layout else {
            throw .invalidProfile("the profile is for layout \(layout), not \(physical.id)")
        }
        return try KeymapEditSession(layout: physical, base: base, draft: draft)
    }

    struct Raw: Codable {
        var schemaVersion: Int
        var address: String
        var layout: String
        var base: KeymapJSON.RawKeymap
        var draft: RawDraft
        /// Absent (nil) in profiles of older kblink, and written only when true.
        var baseOnDevice: Bool?
        var applyOnConnect: Bool?
        var baseOrigin: String?
        var baseSince: Int64?
        /// Written only when a macro has an owner.
        var macroOwners: [String: UInt32]?
    }

    struct RawDraft: Codable {
        var currentZone: String
        var cursor: Int
        var operations: [KeymapJSON.RawOperation]
    }

    /// Reads and checks the stored form.
    /// - Throws: `KeymapError.invalidProfile` naming the problem and where it is.
    init(json: [UInt8]) throws(KeymapError) {
        try ProfileJSON.checkSchema(json)
        let raw = try ProfileJSON.decode(Raw.self, from: json)
        address = try KeyboardAddress(raw.address)
        layout = try LayoutID(raw.layout)
        do {
            base = try KeymapJSON.keymap(raw.base)
        } catch {
            throw .invalidProfile("base: \(error.description)")
        }
        var operations: [EditOperation] = []
        for (index, operation) in raw.draft.operations.enumerated() {
            do {
                operations.append(try KeymapJSON.operation(operation))
            } catch {
                throw .invalidProfile("draft operation \(index + 1): \(error.description)")
            }
        }
        guard (0...operations.count).contains(raw.draft.cursor) else {
            throw .invalidProfile("draft cursor \(raw.draft.cursor) is outside 0 to \(operations.count)")
        }
        draft = DraftRecord(
            currentZone: try ZoneID(parsing: raw.draft.currentZone), operations: operations, cursor: raw.draft.cursor)
        settings = ProfileSettings(
            baseOnDevice: raw.baseOnDevice ?? false, applyOnConnect: raw.applyOnConnect ?? false,
            baseOrigin: raw.baseOrigin.flatMap(ProfileSettings.BaseOrigin.init(rawValue:)),
            baseSince: raw.baseSince)
        settings.macroOwners = raw.macroOwners ?? [:]
    }

    /// The stored form, keys sorted.
    func json() -> [UInt8] {
        ProfileJSON.encode(
            Raw(
                schemaVersion: ProfileDocument.currentSchemaVersion, address: address.rawValue, layout: layout.rawValue,
                base: KeymapJSON.raw(base),
                draft: RawDraft(
                    currentZone: draft.currentZone.rawValue, cursor: draft.cursor,
                    operations: draft.operations.map(KeymapJSON.raw)),
                baseOnDevice: settings.baseOnDevice ? true : nil,
                applyOnConnect: settings.applyOnConnect ? true : nil,
                baseOrigin: settings.baseOrigin == .builtInDefault ? nil : settings.baseOrigin.rawValue,
                baseSince: settings.baseSince,
                macroOwners: settings.macroOwners.isEmpty ? nil : settings.macroOwners))
    }
}
