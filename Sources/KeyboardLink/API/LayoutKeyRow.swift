import KeyboardLinkDBus

/// One key of a ``KeyboardLayoutDefinition``; on the wire `(ssddddqqs)`: name, zone, place and size in key units
/// (y downwards), switch-matrix row and column, and what layer 0 does by default (QMK spelling).
public struct LayoutKeyRow: Sendable, Equatable, DBusWireMapped {
    /// The key name (`ESC`, `R2C13`).
    public var name: String
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
    /// Switch-matrix row.
    public var row: UInt16
    /// Switch-matrix column.
    public var column: UInt16
    /// What layer 0 does by default (`KC_ESC`).
    public var action: String

    /// A key as given (checked by ``KeyboardLayoutDefinition/physicalLayout()``).
    public init(
        name: String, zone: String, x: Double, y: Double, width: Double, height: Double, row: UInt16, column: UInt16,
        action: String
    ) {
        self.name = name
        self.zone = zone
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.row = row
        self.column = column
        self.action = action
    }

    /// `(ssddddqqs)`: name, zone, x, y, width, height, row, column, action.
    public typealias WireForm = DBusStruct<String, String, Double, Double, Double, Double, UInt16, UInt16, String>
    /// A key from `(ssddddqqs)`.
    public init(wireForm: WireForm) {
        (name, zone, x, y, width, height, row, column, action) = wireForm.fields
    }
    /// The key as `(ssddddqqs)`.
    public var wireForm: WireForm { WireForm(name, zone, x, y, width, height, row, column, action) }
}
