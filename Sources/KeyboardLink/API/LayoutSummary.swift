import KeyboardLinkDBus

/// One row of `ListLayouts`: a layout kblinkd was taught, and the keyboards it is for; on the wire `(ssqqus)`: id,
/// name, USB vendor and product IDs, how many keys, where it came from.
public struct LayoutSummary: Sendable, Equatable, DBusWireMapped {
    /// The layout id.
    public var id: String
    /// A name for people.
    public var name: String
    /// The USB vendor ID of the keyboards it is for.
    public var vendorID: UInt16
    /// The USB product ID.
    public var productID: UInt16
    /// How many keys it has.
    public var keyCount: UInt32
    /// Where it came from (`VIA v3 definition`).
    public var source: String

    /// A row as given.
    public init(id: String, name: String, vendorID: UInt16, productID: UInt16, keyCount: UInt32, source: String) {
        self.id = id
        self.name = name
        self.vendorID = vendorID
        self.productID = productID
        self.keyCount = keyCount
        self.source = source
    }

    /// The row of a definition.
    public init(_ definition: KeyboardLayoutDefinition) {
        self.init(
            id: definition.id, name: definition.name, vendorID: definition.vendorID, productID: definition.productID,
            keyCount: UInt32(clamping: definition.keys.count), source: definition.source)
    }

    /// `(ssqqus)`: id, name, vendor ID, product ID, key count, source.
    public typealias WireForm = DBusStruct<String, String, UInt16, UInt16, UInt32, String>
    /// A row from `(ssqqus)`.
    public init(wireForm: WireForm) {
        (id, name, vendorID, productID, keyCount, source) = wireForm.fields
    }
    /// The row as `(ssqqus)`.
    public var wireForm: WireForm { WireForm(id, name, vendorID, productID, keyCount, source) }
}
