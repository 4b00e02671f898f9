/// One of the physical layouts a keyboard's firmware knows (ZMK Studio `get_physical_layouts`): an arrangement of
/// its keys, of which one is active at a time.
package struct DevicePhysicalLayout: Sendable, Equatable {
    /// The firmware's name for it (its `display-name`; may be empty).
    package var name: String
    /// How many keys it places.
    package var keys: Int
    /// Whether it is the active one.
    package var active: Bool

    /// Creates a layout entry.
    package init(name: String, keys: Int, active: Bool) {
        self.name = name
        self.keys = keys
        self.active = active
    }
}
