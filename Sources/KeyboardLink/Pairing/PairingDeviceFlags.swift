import KeyboardLinkDBus

/// The parts of a device's BlueZ state that a pairing changes.
public struct PairingDeviceFlags: Sendable, Equatable {
    /// `Device1.Paired`.
    public var paired: Bool
    /// `Device1.Trusted`.
    public var trusted: Bool
    /// `Device1.Connected`.
    public var connected: Bool

    /// Flags as given.
    public init(paired: Bool, trusted: Bool, connected: Bool = false) {
        self.paired = paired
        self.trusted = trusted
        self.connected = connected
    }

    /// Reads the flags from `org.bluez.Device1` properties (missing ones count as false).
    public init(properties: [String: DBusValue]) {
        paired = properties["Paired"]?.boolValue ?? false
        trusted = properties["Trusted"]?.boolValue ?? false
        connected = properties["Connected"]?.boolValue ?? false
    }

    /// What a successful pairing ends with.
    public var isComplete: Bool { paired && trusted && connected }
}
