import KeyboardLinkDBus

/// One row of `GetPhysicalLayouts`: a physical layout the keyboard's firmware knows (ZMK Studio); on the wire
/// `(sub)`: its name, how many keys it places, whether it is the active one. Its index is its place in the answer.
public struct PhysicalLayoutEntry: Sendable, Equatable, Encodable, DBusWireMapped {
    /// The firmware's name for it (may be empty).
    public var name: String
    /// How many keys it places.
    public var keys: UInt32
    /// Whether it is the active one.
    public var active: Bool

    /// A row as given.
    public init(name: String, keys: UInt32, active: Bool) {
        self.name = name
        self.keys = keys
        self.active = active
    }

    /// `(sub)`: name, keys, active.
    public typealias WireForm = DBusStruct<String, UInt32, Bool>
    /// A row from `(sub)`.
    public init(wireForm: WireForm) {
        (name, keys, active) = wireForm.fields
    }
    /// The row as `(sub)`.
    public var wireForm: WireForm { WireForm(name, keys, active) }
}
