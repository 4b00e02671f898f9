import KeyboardLinkDBus

/// The answer of `org.kblink1.Keymap.Pull`, on the wire `a{sv}` (docs/dbus-api.md). Keys a peer does not know are
/// skipped; a key it knows with another type is an error.
public struct PullReport: Sendable, Equatable, DBusRepresentable {
    /// Bindings whose pulled action differed from the draft's.
    public var changed: Int
    /// Bindings read (layers pulled times the layout's keys).
    public var bindings: Int
    /// Layers pulled.
    public var layers: Int
    /// Layers the keyboard holds.
    public var deviceLayers: Int
    /// Macros the pulled bindings play.
    public var macros: Int
    /// Bindings kblink cannot express, pulled as the layer's cleared action.
    public var unknown: Int
    /// The driver used (`zmk-studio`, `via`).
    public var driver: String
    /// Whether the pull replaced edits of the draft and was recorded as an edit (one `Undo` brings them back);
    /// false when the keyboard's keymap simply became the base.
    public var undoable: Bool

    /// A report as given.
    public init(
        changed: Int = 0, bindings: Int = 0, layers: Int = 0, deviceLayers: Int = 0, macros: Int = 0,
        unknown: Int = 0, driver: String = "", undoable: Bool = false
    ) {
        self.changed = changed
        self.bindings = bindings
        self.layers = layers
        self.deviceLayers = deviceLayers
        self.macros = macros
        self.unknown = unknown
        self.driver = driver
        self.undoable = undoable
    }

    /// `a{sv}`.
    public static var dbusType: DBusType { .dictionary(key: .string, value: .variant) }

    /// Decodes the answer; missing keys read as zero or empty.
    /// - Throws: `InvalidArgs` when a known key holds another type.
    public init(dbusValue: DBusValue) throws {
        let record = try VariantRecord("pull answer", dbusValue: dbusValue)
        func count(_ key: String) throws -> Int { Int(try record.value(key, or: UInt32(0))) }
        self.init(
            changed: try count("changed"), bindings: try count("bindings"), layers: try count("layers"),
            deviceLayers: try count("device-layers"), macros: try count("macros"), unknown: try count("unknown"),
            driver: try record.value("driver", or: ""), undoable: try record.value("undoable", or: false))
    }

    /// The answer as `a{sv}`: `changed`, `bindings`, `layers`, `device-layers`, `macros`, `unknown` (u), `driver`
    /// (s), `undoable` (b).
    public var dbusValue: DBusValue {
        var record = VariantRecord("pull answer")
        record.set("changed", UInt32(clamping: changed))
        record.set("bindings", UInt32(clamping: bindings))
        record.set("layers", UInt32(clamping: layers))
        record.set("device-layers", UInt32(clamping: deviceLayers))
        record.set("macros", UInt32(clamping: macros))
        record.set("unknown", UInt32(clamping: unknown))
        record.set("driver", driver)
        record.set("undoable", undoable)
        return record.dbusValue
    }
}
