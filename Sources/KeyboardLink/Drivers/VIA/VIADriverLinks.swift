import KeyboardLinkBlueZ

/// Opens the VIA link of a keyboard: by default the hidraw node whose `HID_UNIQ` is the keyboard's address and
/// whose report descriptor has VIA's usage page; tests swap in a socketpair to a simulated keyboard.
public struct VIADriverLinks: Sendable {
    /// An open link and how to close it.
    public struct Link: Sendable {
        /// The transport.
        public var transport: any VIATransport
        /// Closes it.
        public var close: @Sendable () -> Void

        /// Creates a link.
        public init(transport: any VIATransport, close: @escaping @Sendable () -> Void) {
            self.transport = transport
            self.close = close
        }
    }

    /// Opens a keyboard's link; nil when it has none.
    public var open: @Sendable (BluetoothAddress) throws -> Link?

    /// Creates a provider.
    public init(open: @escaping @Sendable (BluetoothAddress) throws -> Link?) {
        self.open = open
    }

    /// The hidraw nodes under `sysfsRoot` (real systems: `/sys/class/hidraw`).
    public static func hidraw(_ discovery: HIDRawDiscovery = HIDRawDiscovery()) -> VIADriverLinks {
        VIADriverLinks { address in
            guard let node = try discovery.viaNodes(matching: .uniqueID(address.description)).first else {
                return nil
            }
            let transport = try VIAHIDRawTransport(path: node.devicePath, reportID: node.viaReportID)
            return Link(transport: transport, close: { transport.close() })
        }
    }
}
