/// One key of a keyboard's layout as `GetKeys()` reports it: name, zone and place in key units (y downwards).
public struct KeymapKeyInfo: Sendable, Equatable {
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

    /// Creates a key.
    public init(key: String, zone: String, x: Double, y: Double, width: Double, height: Double) {
        self.key = key
        self.zone = zone
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
