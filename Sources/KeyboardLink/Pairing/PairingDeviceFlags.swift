import KeyboardLinkDBus

/// The parts of a device's BlueZ state that a pairing changes.
package struct PairingDeviceFlags: Sendable, Equatable {
    /// `Device1.Paired`.
    package var paired: Bool
    /// `Device1.Trusted`.
    package var trusted: Bool
    /// `Device1.Connected`.
    package var connected: Bool

    /// Flags as given.
    package init(paired: Bool, trusted: Bool, connected: Bool = false) {
        self.paired = paired
        self.trusted = trusted
        self.connected = connected
    }

    /// Reads the flags from `org.bluez.Device1` properties (missing ones count as false).
    package init(properties: [String: DBusValue]) {
        paired = properties["Paired"]?.boolValue ?? false
        trusted = properties["Trusted"]?.boolValue ?? false
        connected = properties["Connected"]?.boolValue ?? false
    }

    /// What a successful pairing ends with.
    package var isComplete: Bool { paired && trusted && connected }
}
