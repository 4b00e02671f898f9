import KeyboardLinkDBus

/// One row of `GetBindings`: a key and what it does; on the wire `(ss)`.
public struct BindingRow: Sendable, Equatable, DBusWireMapped {
    /// The key's name (`CAPS`).
    public var key: String
    /// The action in QMK spelling (`KC_LCTL`).
    public var action: String

    /// A row as given.
    public init(key: String, action: String) {
        self.key = key
        self.action = action
    }

    /// `(ss)`: key, action.
    public typealias WireForm = DBusStruct<String, String>
    /// A row from `(ss)`.
    public init(wireForm: WireForm) {
        (key, action) = wireForm.fields
    }
    /// The row as `(ss)`.
    public var wireForm: WireForm { WireForm(key, action) }
}

/// One row of `Diff`: a key (or a layer, or a macro) whose draft differs from the base; on the wire `(sussss)`.
public struct DiffRow: Sendable, Equatable, DBusWireMapped {
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

    /// `(sussss)`: zone, layer, key, old, new, origin.
    public typealias WireForm = DBusStruct<String, UInt32, String, String, String, String>
    /// A row from `(sussss)`.
    public init(wireForm: WireForm) {
        let (zone, layer, key, old, new, origin) = wireForm.fields
        self.init(zone: zone, layer: Int(layer), key: key, old: old, new: new, origin: origin)
    }
    /// The row as `(sussss)`.
    public var wireForm: WireForm { WireForm(zone, UInt32(clamping: layer), key, old, new, origin) }
}

/// One key of a keyboard's layout as `GetKeys` reports it: name, zone and place in key units (y downwards); on the
/// wire `(ssdddd)`.
public struct KeyGeometry: Sendable, Equatable, DBusWireMapped {
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

    /// `(ssdddd)`: key, zone, x, y, width, height.
    public typealias WireForm = DBusStruct<String, String, Double, Double, Double, Double>
    /// A key from `(ssdddd)`.
    public init(wireForm: WireForm) {
        (key, zone, x, y, width, height) = wireForm.fields
    }
    /// The key as `(ssdddd)`.
    public var wireForm: WireForm { WireForm(key, zone, x, y, width, height) }
}
