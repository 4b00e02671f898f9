import KeyboardLinkBlueZ

/// Which keyboard a hidraw node must belong to.
package enum HIDRawMatch: Hashable, Sendable {
    /// A Bluetooth keyboard: the node's `HID_ID` bus is 0x0005 (Bluetooth), its `HID_UNIQ` the keyboard's address,
    /// its `HID_PHYS` the address of the adapter it is connected through, and its `HID_ID` vendor and product the
    /// keyboard's, when they are known. `HID_UNIQ` alone proves nothing: any USB or uhid device can carry any text
    /// there.
    case bluetooth(BluetoothHIDKeyboard)
    /// The node's `HID_ID` carries this vendor and product (and bus, when given: 0x0003 USB, 0x0005 Bluetooth).
    case deviceIDs(vendor: UInt16, product: UInt16, bus: UInt16?)

    /// Whether `node` belongs to the keyboard.
    package func matches(_ node: HIDRawNode) -> Bool {
        switch self {
        case .bluetooth(let keyboard):
            guard node.busType == HIDRawNode.bluetoothBus,
                BluetoothAddress(validating: node.uniqueID) == keyboard.address,
                let adapter = keyboard.adapter, BluetoothAddress(validating: node.physicalPath) == adapter
            else { return false }
            guard let ids = keyboard.productIDs else { return true }
            return node.vendorID == UInt32(ids.vendor) && node.productID == UInt32(ids.product)
        case let .deviceIDs(vendor, product, bus):
            return node.vendorID == UInt32(vendor) && node.productID == UInt32(product)
                && (bus.map { UInt16($0) == node.busType } ?? true)
        }
    }
}

/// What kblinkd knows of a Bluetooth keyboard whose hidraw node it looks for, from BlueZ: the device's address,
/// its adapter's address, and the vendor and product of its `Modalias` (which BlueZ also gives the kernel's HID
/// device, as `HID_ID`).
package struct BluetoothHIDKeyboard: Hashable, Sendable, CustomStringConvertible {
    /// A vendor and product ID.
    package struct ProductIDs: Hashable, Sendable {
        /// The vendor ID.
        package var vendor: UInt16
        /// The product ID.
        package var product: UInt16

        /// Creates a pair.
        package init(vendor: UInt16, product: UInt16) {
            self.vendor = vendor
            self.product = product
        }
    }

    /// The keyboard's address (`Device1.Address`; the node's `HID_UNIQ`).
    package var address: BluetoothAddress
    /// The address of the adapter it is connected through (`Adapter1.Address`; the node's `HID_PHYS`); nil when
    /// unknown, and then no node matches.
    package var adapter: BluetoothAddress?
    /// Its vendor and product (from `Device1.Modalias`); nil when BlueZ does not know them, and then any IDs match.
    package var productIDs: ProductIDs?

    /// Creates a description of a keyboard.
    package init(address: BluetoothAddress, adapter: BluetoothAddress?, productIDs: ProductIDs? = nil) {
        self.address = address
        self.adapter = adapter
        self.productIDs = productIDs
    }

    /// `AA:BB:CC:DD:EE:FF on adapter 00:11:22:33:44:55, 320F:5088`, for errors.
    package var description: String {
        func hex(_ value: UInt16) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
        var text = "\(address) on adapter \(adapter?.description ?? "(unknown)")"
        if let productIDs { text += ", vendor \(hex(productIDs.vendor)) product \(hex(productIDs.product))" }
        return text
    }
}
