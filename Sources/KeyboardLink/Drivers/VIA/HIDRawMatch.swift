/// Which keyboard a hidraw node must belong to.
public enum HIDRawMatch: Hashable, Sendable {
    /// The node's `HID_UNIQ` equals this Bluetooth address, compared case-insensitively.
    case uniqueID(String)
    /// The node's `HID_ID` carries this vendor and product (and bus, when given: 0x0003 USB, 0x0005 Bluetooth).
    case deviceIDs(vendor: UInt16, product: UInt16, bus: UInt16?)

    /// Whether `node` belongs to the keyboard.
    public func matches(_ node: HIDRawNode) -> Bool {
        switch self {
        case .uniqueID(let address):
            return !address.isEmpty && node.uniqueID.lowercased() == address.lowercased()
        case let .deviceIDs(vendor, product, bus):
            return node.vendorID == UInt32(vendor) && node.productID == UInt32(product)
                && (bus.map { UInt16($0) == node.busType } ?? true)
        }
    }
}
