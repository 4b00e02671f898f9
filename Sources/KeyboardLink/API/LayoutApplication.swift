import KeyboardLinkDBus

/// What adding or removing a layout did to a keyboard kblinkd knows whose IDs it matches: one row of the
/// `AddLayout` and `RemoveLayout` answers; on the wire `(sss)`: the keyboard's address, its alias, and the outcome
/// (`applied`: its keymap now uses the layout (or, after a removal, the one its name suggests); otherwise why it
/// kept its layout, and what to do).
public struct LayoutApplication: Sendable, Equatable, DBusWireMapped {
    /// The keyboard's Bluetooth address.
    public var address: String
    /// Its alias.
    public var alias: String
    /// `applied`, or why not.
    public var outcome: String

    /// The outcome of a keyboard that now uses the layout.
    public static let applied = "applied"

    /// A row as given.
    public init(address: String, alias: String, outcome: String) {
        self.address = address
        self.alias = alias
        self.outcome = outcome
    }

    /// `(sss)`: address, alias, outcome.
    public typealias WireForm = DBusStruct<String, String, String>
    /// A row from `(sss)`.
    public init(wireForm: WireForm) {
        (address, alias, outcome) = wireForm.fields
    }
    /// The row as `(sss)`.
    public var wireForm: WireForm { WireForm(address, alias, outcome) }
}
