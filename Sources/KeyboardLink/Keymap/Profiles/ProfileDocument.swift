import KeyboardLinkSupport

/// A profile as exported and imported: a layout id, the bindings of every layer and the macros.
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "layout": "aula-f87",
///   "layers": [ { "A": "KC_A", "CAPS": "KC_LCTL", ... }, { "F1": "KC_MUTE", ... } ],
///   "macros": { "copy": "ctrl+c", "sig": "text 'Best regards', enter" }
/// }
/// ```
///
/// Actions may be written in any spelling `KeyAction(parsing:)` reads and macros in the text form of
/// `Macro(parsing:)`; exports use QMK spellings. Keys a layer leaves out are cleared (nothing on layer 0,
/// transparent above) when imported.
public struct ProfileDocument: Hashable, Sendable {
    /// The schema version this kblink writes and reads.
    public static let currentSchemaVersion = 1

    /// The layout the profile is for.
    public var layout: LayoutID
    /// The bindings and macros.
    public var keymap: Keymap

    /// Creates a document.
    public init(layout: LayoutID, keymap: Keymap) {
        self.layout = layout
        self.keymap = keymap
    }

    struct Raw: Codable {
        var schemaVersion: Int
        var layout: String
        var layers: [[String: String]]
        var macros: [String: String]?
    }

    /// Reads and checks an exported profile (schema, types, names, actions, macros, references between them).
    /// - Throws: `KeymapError.invalidProfile` naming the problem and where it is.
    public init(json: [UInt8]) throws(KeymapError) {
        try ProfileJSON.checkSchema(json)
        let raw = try ProfileJSON.decode(Raw.self, from: json)
        layout = try LayoutID(raw.layout)
        keymap = try KeymapJSON.keymap(KeymapJSON.RawKeymap(layers: raw.layers, macros: raw.macros))
    }

    /// Reads and checks an exported profile from text.
    public init(json text: String) throws(KeymapError) {
        try self.init(json: Array(text.utf8))
    }

    /// The JSON form, keys sorted, which `init(json:)` reads back to an equal document.
    public func json() -> [UInt8] {
        let raw = KeymapJSON.raw(keymap)
        return ProfileJSON.encode(
            Raw(
                schemaVersion: Self.currentSchemaVersion, layout: layout.rawValue, layers: raw.layers,
                macros: raw.macros))
    }
}

extension KeymapEditSession {
    /// The draft as an exportable profile.
    public func exportProfile() -> ProfileDocument {
        ProfileDocument(layout: layout.id, keymap: draftKeymap)
    }

    /// The draft as exported profile JSON text (`ExportProfile`).
    public func exportProfileJSON() -> String {
        String(decoding: exportProfile().json(), as: UTF8.self)
    }

    /// Stages an imported profile as one edit (undoable like any other).
    /// - Throws: `KeymapError.invalidProfile` when the profile is for another layout, has more layers than the
    ///   keyboard, or names keys this layout lacks.
    public mutating func importProfile(_ document: ProfileDocument) throws(KeymapError) {
        guard document.layout == layout.id else {
            throw .invalidProfile(
                "the profile is for layout \(document.layout); this keyboard's layout is \(layout.id)")
        }
        do {
            try apply(.importProfile(document.keymap))
        } catch .unknownKey(let key, let layoutID, _) {
            throw .invalidProfile("the profile binds key \(key), which layout \(layoutID) does not have")
        }
    }

    /// Reads, checks and stages profile JSON text (`ImportProfile`): a kblink profile, or a VIA keymap backup.
    public mutating func importProfile(json text: String) throws(KeymapError) {
        guard text.utf8.count <= FileStore.maximumReadSize else { throw .invalidProfile("the profile is too large") }
        let bytes = Array(text.utf8)
        if VIAKeymapBackup.looksLikeBackup(bytes) {
            try importVIABackup(json: bytes)
            return
        }
        try importProfile(try ProfileDocument(json: text))
    }
}
