import KeyboardLinkSupport

/// A profile as exported and imported: a layout id, the bindings of every layer and the macros.
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "layout": "aula-f87",
///   "layers": [ { "A": "KC_A", "CAPS": "KC_LCTL", ... }, { "F1": "KC_MUTE", ... } ],
///   "macros": { "copy": "ctrl+c", "sig": "text 'Best regards', enter" },
///   "layerNames": [ "Base", "Fn" ]
/// }
/// ```
///
/// `layerNames` (optional) names the layers in order, an empty string for a layer without a name; an import sets
/// the names it gives (also a replacing one: QMK and Vial files cannot say names).
///
/// Actions may be written in any spelling `KeyAction(parsing:)` reads and macros in the text form of
/// `Macro(parsing:)`; exports use QMK spellings. An import merges: keys, layers and macros the document leaves
/// out stay as they are; a replacing import (`--replace`) clears the keys it leaves out (nothing on layer 0,
/// transparent above) and removes the macros it does not define.
package struct ProfileDocument: Hashable, Sendable {
    /// The schema version this kblink writes and reads.
    package static let currentSchemaVersion = 1

    /// The layout the profile is for.
    package var layout: LayoutID
    /// The bindings and macros.
    package var keymap: Keymap

    /// Creates a document.
    package init(layout: LayoutID, keymap: Keymap) {
        self.layout = layout
        self.keymap = keymap
    }

    struct Raw: Codable {
        var schemaVersion: Int
        var layout: String
        var layers: [[String: String]]
        var macros: [String: String]?
        var layerNames: [String]?
    }

    /// Reads and checks an exported profile (schema, types, names, actions, macros, references between them).
    /// - Throws: `KeymapError.invalidProfile` naming the problem and where it is.
    package init(json: [UInt8]) throws(KeymapError) {
        try ProfileJSON.checkSchema(json)
        let raw = try ProfileJSON.decode(Raw.self, from: json)
        layout = try LayoutID(raw.layout)
        keymap = try KeymapJSON.keymap(
            KeymapJSON.RawKeymap(layers: raw.layers, macros: raw.macros, layerNames: raw.layerNames))
    }

    /// Reads and checks an exported profile from text.
    package init(json text: String) throws(KeymapError) {
        try self.init(json: Array(text.utf8))
    }

    /// The JSON form, keys sorted, which `init(json:)` reads back to an equal document.
    package func json() -> [UInt8] {
        let raw = KeymapJSON.raw(keymap)
        return ProfileJSON.encode(
            Raw(
                schemaVersion: Self.currentSchemaVersion, layout: layout.rawValue, layers: raw.layers,
                macros: raw.macros, layerNames: raw.layerNames))
    }
}

extension KeymapEditSession {
    /// The draft as an exportable profile.
    package func exportProfile() -> ProfileDocument {
        ProfileDocument(layout: layout.id, keymap: draftKeymap)
    }

    /// The draft as exported profile JSON text (`ExportProfile`).
    package func exportProfileJSON() -> String {
        String(decoding: exportProfile().json(), as: UTF8.self)
    }

    /// Stages an imported profile as one edit (undoable like any other).
    ///
    /// By default the profile is merged: the keys, layers and macros it names are set, everything it leaves out
    /// stays as it is. With `replace`, every binding and macro is replaced: keys the profile leaves out are cleared
    /// (nothing on layer 0, transparent above) and macros it does not define are removed.
    /// - Returns: what changed.
    /// - Throws: `KeymapError.invalidProfile` when the profile is for another layout, has more layers than the
    ///   draft, or names keys this layout lacks.
    @discardableResult
    package mutating func importProfile(_ document: ProfileDocument, replace: Bool = false) throws(KeymapError)
        -> ProfileImportSummary
    {
        guard document.layout == layout.id else {
            throw .invalidProfile(
                "the profile is for layout \(document.layout); this keyboard's layout is \(layout.id)")
        }
        do {
            let change = try applyReturningChange(
                replace ? .importProfile(document.keymap) : .mergeProfile(document.keymap))
            return ProfileImportSummary(change: change, document: document.keymap, layout: layout, replaced: replace)
        } catch .unknownKey(let key, let layoutID, let suggestion) {
            throw .invalidProfile(
                "the profile binds key \(key), which layout \(layoutID) does not have"
                    + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""))
        }
    }

    /// Reads, checks and stages profile JSON text (`ImportProfile`): a kblink profile (merged, or replacing
    /// everything with `replace`), or a VIA keymap backup (which holds every key, so it always replaces the
    /// bindings; the macros stay).
    /// - Returns: what changed.
    @discardableResult
    package mutating func importProfile(json text: String, replace: Bool = false) throws(KeymapError)
        -> ProfileImportSummary
    {
        guard text.utf8.count <= FileStore.maximumReadSize else { throw .invalidProfile("the profile is too large") }
        let bytes = Array(text.utf8)
        if VIAKeymapBackup.looksLikeBackup(bytes) {
            return try importVIABackup(json: bytes)
        }
        return try importProfile(try ProfileDocument(json: text), replace: replace)
    }
}
