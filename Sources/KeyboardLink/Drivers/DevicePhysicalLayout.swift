/// One of the physical layouts a keyboard's firmware knows (ZMK Studio `get_physical_layouts`): an arrangement of
/// its keys, of which one is active at a time.
public struct DevicePhysicalLayout: Sendable, Equatable {
    /// The firmware's name for it (its `display-name`; may be empty).
    public var name: String
    /// How many keys it places.
    public var keys: Int
    /// Whether it is the active one.
    public var active: Bool

    /// Creates a layout entry.
    public init(name: String, keys: Int, active: Bool) {
        self.name = name
        self.keys = keys
        self.active = active
    }
}
