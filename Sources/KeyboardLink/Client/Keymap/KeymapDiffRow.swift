/// One row of `Diff()`: a key whose action differs from the base.
public struct KeymapDiffRow: Sendable, Equatable {
    /// The key's zone.
    public var zone: String
    /// The layer.
    public var layer: Int
    /// The key name.
    public var key: String
    /// The base's action.
    public var old: String
    /// The draft's (or the keyboard's) action.
    public var new: String
    /// `draft` or `device`.
    public var origin: String

    /// Creates a row.
    public init(zone: String, layer: Int, key: String, old: String, new: String, origin: String) {
        self.zone = zone
        self.layer = layer
        self.key = key
        self.old = old
        self.new = new
        self.origin = origin
    }
}
