import KeyboardLinkDBus

/// One row of `GetBindings`: a key and what it does; on the wire `(ss)`.
public struct BindingRow: Sendable, Equatable, DBusRepresentable {
    /// The key's name (`CAPS`).
    public var key: String
    /// The action in QMK spelling (`KC_LCTL`).
    public var action: String

    /// A row as given.
    public init(key: String, action: String) {
        self.key = key
        self.action = action
    }

    /// `(ss)`.
    public static var dbusType: DBusType { DBusStruct<String, String>.dbusType }
    /// Decodes `(ss)`.
    public init(dbusValue: DBusValue) throws {
        (key, action) = try DBusStruct<String, String>(dbusValue: dbusValue).fields
    }
    /// Encodes as `(ss)`.
    public var dbusValue: DBusValue { DBusStruct(key, action).dbusValue }
}

/// One row of `Diff`: a key (or a layer, or a macro) whose draft differs from the base; on the wire `(sussss)`.
public struct DiffRow: Sendable, Equatable, DBusRepresentable {
    /// The key's zone; `layer` for a layer added or removed, `macro` for a macro.
    public var zone: String
    /// The layer.
    public var layer: Int
    /// The key name (the macro's name; empty for a layer).
    public var key: String
    /// The base's action.
    public var old: String
    /// The draft's (or the keyboard's) action.
    public var new: String
    /// `draft` or `device` (and, in `kblink keymap diff`, `keyboard` or `conflict`).
    public var origin: String

    /// A row as given.
    public init(zone: String, layer: Int, key: String, old: String, new: String, origin: String) {
        self.zone = zone
        self.layer = layer
        self.key = key
        self.old = old
        self.new = new
        self.origin = origin
    }

    private typealias Wire = DBusStruct<String, UInt32, String, String, String, String>

    /// `(sussss)`.
    public static var dbusType: DBusType { Wire.dbusType }
    /// Decodes `(sussss)`.
    public init(dbusValue: DBusValue) throws {
        let (zone, layer, key, old, new, origin) = try Wire(dbusValue: dbusValue).fields
        self.init(zone: zone, layer: Int(layer), key: key, old: old, new: new, origin: origin)
    }
    /// Encodes as `(sussss)`.
    public var dbusValue: DBusValue { Wire(zone, UInt32(clamping: layer), key, old, new, origin).dbusValue }
}

/// One key of a keyboard's layout as `GetKeys` reports it: name, zone and place in key units (y downwards); on the
/// wire `(ssdddd)`.
public struct KeyGeometry: Sendable, Equatable, DBusRepresentable {
    /// The key name (`ESC`, `KP_1`).
    public var key: String
    /// Its zone (`standard`, `number`, `function`, `navigation`).
    public var zone: String
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// A key as given.
    public init(key: String, zone: String, x: Double, y: Double, width: Double, height: Double) {
        self.key = key
        self.zone = zone
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    private typealias Wire = DBusStruct<String, String, Double, Double, Double, Double>

    /// `(ssdddd)`.
    public static var dbusType: DBusType { Wire.dbusType }
    /// Decodes `(ssdddd)`.
    public init(dbusValue: DBusValue) throws {
        (key, zone, x, y, width, height) = try Wire(dbusValue: dbusValue).fields
    }
    /// Encodes as `(ssdddd)`.
    public var dbusValue: DBusValue { Wire(key, zone, x, y, width, height).dbusValue }
}
