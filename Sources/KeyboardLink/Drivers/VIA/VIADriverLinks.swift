import KeyboardLinkBlueZ

/// Opens the VIA link of a keyboard: by default its one hidraw node on the Bluetooth bus whose `HID_UNIQ` is the
/// keyboard's address, `HID_PHYS` its adapter's and `HID_ID` its vendor and product, whose report descriptor has
/// VIA's usage page, and which is, once open, the character device sysfs named; tests swap in a socketpair to a
/// simulated keyboard.
package struct VIADriverLinks: Sendable {
    /// An open link and how to close it.
    package struct Link: Sendable {
        /// The transport.
        package var transport: any VIATransport
        /// Closes it.
        package var close: @Sendable () -> Void

        /// Creates a link.
        package init(transport: any VIATransport, close: @escaping @Sendable () -> Void) {
            self.transport = transport
            self.close = close
        }
    }

    /// Opens a keyboard's link; nil when it has none.
    package var open: @Sendable (BluetoothHIDKeyboard) throws -> Link?

    /// Creates a provider.
    package init(open: @escaping @Sendable (BluetoothHIDKeyboard) throws -> Link?) {
        self.open = open
    }

    /// The hidraw nodes under `sysfsRoot` (real systems: `/sys/class/hidraw`).
    /// - Throws (from `open`): ``HIDRawRefusal`` when more than one node matches or the opened node is not the
    ///   discovered one; what discovery and `open()` throw.
    package static func hidraw(_ discovery: HIDRawDiscovery = HIDRawDiscovery()) -> VIADriverLinks {
        VIADriverLinks { keyboard in
            guard let node = try discovery.viaNode(of: keyboard) else { return nil }
            let transport = try VIAHIDRawTransport(node: node)
            return Link(transport: transport, close: { transport.close() })
        }
    }
}
