import KeyboardLinkDBus

/// The answer of `Manager.SetKeyboardBinding`: the keyboard the `device` argument named, and the binding as kblinkd
/// stored it there (``StoredBinding``).
///
/// On the wire `(ss(sussbs))`: the keyboard's address, its alias, the stored binding.
public struct KeyboardBindingEdit: Sendable, Equatable, DBusWireMapped {
    /// The keyboard's address (`AA:BB:CC:DD:EE:FF`).
    public var address: String
    /// The keyboard's alias, as BlueZ reports it: chosen by the device unless the user set one, so escape it before
    /// showing it.
    public var alias: String
    /// The binding as stored.
    public var stored: StoredBinding

    /// An edit's answer as given.
    public init(address: String, alias: String, stored: StoredBinding) {
        self.address = address
        self.alias = alias
        self.stored = stored
    }

    /// `(ss(sussbs))`: address, alias, stored binding.
    public typealias WireForm = DBusStruct<String, String, StoredBinding>

    /// An edit's answer from `(ss(sussbs))`.
    public init(wireForm: WireForm) {
        let (address, alias, stored) = wireForm.fields
        self.init(address: address, alias: alias, stored: stored)
    }

    /// The answer as `(ss(sussbs))`.
    public var wireForm: WireForm { WireForm(address, alias, stored) }
}
