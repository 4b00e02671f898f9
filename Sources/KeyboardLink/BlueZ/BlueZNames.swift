import KeyboardLinkDBus

/// Names of BlueZ's D-Bus API (`doc/org.bluez.*.rst` in BlueZ).
public enum BlueZ {
    public static let service = BusName(trusted: "org.bluez")
    public static let root = ObjectPath.root
    public static let managerPath = ObjectPath(trusted: "/org/bluez")

    public static let adapterInterface = InterfaceName(trusted: "org.bluez.Adapter1")
    public static let deviceInterface = InterfaceName(trusted: "org.bluez.Device1")
    public static let batteryInterface = InterfaceName(trusted: "org.bluez.Battery1")
    /// On each adapter when bluetoothd runs with experimental features (`-E`).
    public static let batteryProviderManagerInterface = InterfaceName(trusted: "org.bluez.BatteryProviderManager1")
    /// What a battery provider's objects implement.
    public static let batteryProviderInterface = InterfaceName(trusted: "org.bluez.BatteryProvider1")
    public static let inputInterface = InterfaceName(trusted: "org.bluez.Input1")
    public static let agentManagerInterface = InterfaceName(trusted: "org.bluez.AgentManager1")
    public static let agentInterface = InterfaceName(trusted: "org.bluez.Agent1")
    public static let gattServiceInterface = InterfaceName(trusted: "org.bluez.GattService1")
    public static let gattCharacteristicInterface = InterfaceName(trusted: "org.bluez.GattCharacteristic1")
    public static let gattDescriptorInterface = InterfaceName(trusted: "org.bluez.GattDescriptor1")

    /// The methods of BlueZ's interfaces that kblinkd calls (`org.bluez.Adapter1`, `Device1`, `AgentManager1`).
    public enum Method {
        /// `Adapter1.SetDiscoveryFilter(a{sv} filter)`.
        public static let setDiscoveryFilter = MemberName(trusted: "SetDiscoveryFilter")
        /// `Adapter1.StartDiscovery()`.
        public static let startDiscovery = MemberName(trusted: "StartDiscovery")
        /// `Adapter1.StopDiscovery()`.
        public static let stopDiscovery = MemberName(trusted: "StopDiscovery")
        /// `Adapter1.RemoveDevice(o device)`.
        public static let removeDevice = MemberName(trusted: "RemoveDevice")
        /// `Device1.Connect()`.
        public static let connect = MemberName(trusted: "Connect")
        /// `Device1.Disconnect()`.
        public static let disconnect = MemberName(trusted: "Disconnect")
        /// `Device1.ConnectProfile(s uuid)`.
        public static let connectProfile = MemberName(trusted: "ConnectProfile")
        /// `Device1.Pair()`.
        public static let pair = MemberName(trusted: "Pair")
        /// `Device1.CancelPairing()`.
        public static let cancelPairing = MemberName(trusted: "CancelPairing")
        /// `AgentManager1.RegisterAgent(o agent, s capability)`.
        public static let registerAgent = MemberName(trusted: "RegisterAgent")
        /// `AgentManager1.UnregisterAgent(o agent)`.
        public static let unregisterAgent = MemberName(trusted: "UnregisterAgent")
        /// `AgentManager1.RequestDefaultAgent(o agent)`.
        public static let requestDefaultAgent = MemberName(trusted: "RequestDefaultAgent")
    }

    /// The properties of BlueZ's interfaces that kblinkd writes.
    public enum Property {
        /// `Device1.Trusted` (`b`, read-write).
        public static let trusted = MemberName(trusted: "Trusted")
        /// `Adapter1.Powered` (`b`, read-write).
        public static let powered = MemberName(trusted: "Powered")
    }

    /// BlueZ's error names (`org.bluez.Error.*`).
    public enum Error {
        public static let failed = ErrorName(trusted: "org.bluez.Error.Failed")
        public static let inProgress = ErrorName(trusted: "org.bluez.Error.InProgress")
        public static let notReady = ErrorName(trusted: "org.bluez.Error.NotReady")
        public static let notSupported = ErrorName(trusted: "org.bluez.Error.NotSupported")
        public static let notPermitted = ErrorName(trusted: "org.bluez.Error.NotPermitted")
        public static let notAuthorized = ErrorName(trusted: "org.bluez.Error.NotAuthorized")
        public static let invalidArguments = ErrorName(trusted: "org.bluez.Error.InvalidArguments")
        public static let doesNotExist = ErrorName(trusted: "org.bluez.Error.DoesNotExist")
        public static let alreadyConnected = ErrorName(trusted: "org.bluez.Error.AlreadyConnected")
        public static let alreadyExists = ErrorName(trusted: "org.bluez.Error.AlreadyExists")
        public static let notConnected = ErrorName(trusted: "org.bluez.Error.NotConnected")
        public static let authenticationFailed = ErrorName(trusted: "org.bluez.Error.AuthenticationFailed")
        public static let authenticationCanceled = ErrorName(trusted: "org.bluez.Error.AuthenticationCanceled")
        public static let authenticationRejected = ErrorName(trusted: "org.bluez.Error.AuthenticationRejected")
        public static let authenticationTimeout = ErrorName(trusted: "org.bluez.Error.AuthenticationTimeout")
        public static let connectionAttemptFailed = ErrorName(trusted: "org.bluez.Error.ConnectionAttemptFailed")
        public static let rejected = ErrorName(trusted: "org.bluez.Error.Rejected")
        public static let canceled = ErrorName(trusted: "org.bluez.Error.Canceled")
    }
}
