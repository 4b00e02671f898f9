import KBlinkAPI
import KeyboardLinkDBus

/// The properties of a keyboard's `org.kblink1.Keymap` interface, read in one `GetAll`.
public struct KeymapState: Sendable, Equatable {
    /// The layout id.
    public var layout: String
    /// The zones of the layout.
    public var zones: [String]
    /// The zone the editor shows.
    public var currentZone: String
    /// The number of layers.
    public var layers: Int
    /// Whether there is an edit to undo.
    public var canUndo: Bool
    /// Whether there is an undone edit to redo.
    public var canRedo: Bool
    /// Whether the draft differs from the base.
    public var dirty: Bool
    /// The macros, name to definition.
    public var macros: [String: String]
    /// Whether the daemon re-applies the pushed keymap when the keyboard connects and drifted from it.
    public var applyOnConnect: Bool
    /// Where the draft's base came from: `default` (kblink's default keymap; the keyboard was never read),
    /// `keyboard` (read from it) or `pushed`.
    public var baseOrigin: String
    /// When the base was read or pushed, seconds since 1970; 0 when not known.
    public var baseSince: Int64
    /// Per layer, its name (empty for a layer without one).
    public var layerNames: [String]

    /// Reads the properties from a `GetAll` answer; missing or mistyped ones take empty values.
    public init(properties: [String: DBusValue]) {
        typealias Keymap = KBlinkContract.Keymap
        func read<Value>(_ property: KBlinkProperty<Value>) -> Value? { try? property.value(in: properties) }
        layout = read(Keymap.layoutProperty) ?? ""
        zones = read(Keymap.zonesProperty) ?? []
        currentZone = read(Keymap.currentZoneProperty) ?? ""
        layers = Int(read(Keymap.layersProperty) ?? 0)
        canUndo = read(Keymap.canUndoProperty) ?? false
        canRedo = read(Keymap.canRedoProperty) ?? false
        dirty = read(Keymap.dirtyProperty) ?? false
        applyOnConnect = read(Keymap.applyOnConnectProperty) ?? false
        baseOrigin = read(Keymap.baseOriginProperty) ?? ""
        baseSince = Int64(clamping: read(Keymap.baseSinceProperty) ?? 0)
        macros = read(Keymap.macrosProperty) ?? [:]
        layerNames = read(Keymap.layerNamesProperty) ?? []
    }
}
