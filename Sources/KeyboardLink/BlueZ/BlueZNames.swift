import KeyboardLinkDBus

/// Names of BlueZ's D-Bus API (`doc/org.bluez.*.rst` in BlueZ).
public enum BlueZ {
    public static let service: BusName = "org.bluez"
    public static let root = ObjectPath.root
    public static let managerPath: ObjectPath = "/org/bluez"

    public static let adapterInterface: InterfaceName = "org.bluez.Adapter1"
    public static let deviceInterface: InterfaceName = "org.bluez.Device1"
    public static let batteryInterface: InterfaceName = "org.bluez.Battery1"
    /// On each adapter when bluetoothd runs with experimental features (`-E`).
    public static let batteryProviderManagerInterface: InterfaceName = "org.bluez.BatteryProviderManager1"
    /// What a battery provider's objects implement.
    public static let batteryProviderInterface: InterfaceName = "org.bluez.BatteryProvider1"
    public static let inputInterface: InterfaceName = "org.bluez.Input1"
    public static let agentManagerInterface: InterfaceName = "org.bluez.AgentManager1"
    public static let agentInterface: InterfaceName = "org.bluez.Agent1"
    public static let gattServiceInterface: InterfaceName = "org.bluez.GattService1"
    public static let gattCharacteristicInterface: InterfaceName = "org.bluez.GattCharacteristic1"
    public static let gattDescriptorInterface: InterfaceName = "org.bluez.GattDescriptor1"

    /// The methods of BlueZ's interfaces that kblinkd calls (`org.bluez.Adapter1`, `Device1`, `AgentManager1`).
    public enum Method {
        /// `Adapter1.SetDiscoveryFilter(a{sv} filter)`.
        public static let setDiscoveryFilter: MemberName = "SetDiscoveryFilter"
        /// `Adapter1.StartDiscovery()`.
        public static let startDiscovery: MemberName = "StartDiscovery"
        /// `Adapter1.StopDiscovery()`.
        public static let stopDiscovery: MemberName = "StopDiscovery"
        /// `Adapter1.RemoveDevice(o device)`.
        public static let removeDevice: MemberName = "RemoveDevice"
        /// `Device1.Connect()`.
        public static let connect: MemberName = "Connect"
        /// `Device1.Disconnect()`.
        public static let disconnect: MemberName = "Disconnect"
        /// `Device1.ConnectProfile(s uuid)`.
        public static let connectProfile: MemberName = "ConnectProfile"
        /// `Device1.Pair()`.
        public static let pair: MemberName = "Pair"
        /// `Device1.CancelPairing()`.
        public static let cancelPairing: MemberName = "CancelPairing"
        /// `AgentManager1.RegisterAgent(o agent, s capability)`.
        public static let registerAgent: MemberName = "RegisterAgent"
        /// `AgentManager1.UnregisterAgent(o agent)`.
        public static let unregisterAgent: MemberName = "UnregisterAgent"
        /// `AgentManager1.RequestDefaultAgent(o agent)`.
        public static let requestDefaultAgent: MemberName = "RequestDefaultAgent"
    }

    /// The properties of BlueZ's interfaces that kblinkd writes.
    public enum Property {
        /// `Device1.Trusted` (`b`, read-write).
        public static let trusted: MemberName = "Trusted"
        /// `Adapter1.Powered` (`b`, read-write).
        public static let powered: MemberName = "Powered"
    }

    /// BlueZ's error names (`org.bluez.Error.*`).
    public enum Error {
        public static let failed: ErrorName = "org.bluez.Error.Failed"
        public static let inProgress: ErrorName = "org.bluez.Error.InProgress"
        public static let notReady: ErrorName = "org.bluez.Error.NotReady"
        public static let notSupported: ErrorName = "org.bluez.Error.NotSupported"
        public static let notPermitted: ErrorName = "org.bluez.Error.NotPermitted"
        public static let notAuthorized: ErrorName = "org.bluez.Error.NotAuthorized"
        public static let invalidArguments: ErrorName = "org.bluez.Error.InvalidArguments"
        public static let doesNotExist: ErrorName = "org.bluez.Error.DoesNotExist"
        public static let alreadyConnected: ErrorName = "org.bluez.Error.AlreadyConnected"
        public static let alreadyExists: ErrorName = "org.bluez.Error.AlreadyExists"
        public static let notConnected: ErrorName = "org.bluez.Error.NotConnected"
        public static let authenticationFailed: ErrorName = "org.bluez.Error.AuthenticationFailed"
        public static let authenticationCanceled: ErrorName = "org.bluez.Error.AuthenticationCanceled"
        public static let authenticationRejected: ErrorName = "org.bluez.Error.AuthenticationRejected"
        public static let authenticationTimeout: ErrorName = "org.bluez.Error.AuthenticationTimeout"
        public static let connectionAttemptFailed: ErrorName = "org.bluez.Error.ConnectionAttemptFailed"
        public static let rejected: ErrorName = "org.bluez.Error.Rejected"
        public static let canceled: ErrorName = "org.bluez.Error.Canceled"
    }
}
