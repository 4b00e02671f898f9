import KeyboardLinkDBus

/// Names of BlueZ's D-Bus API (`doc/org.bluez.*.rst` in BlueZ).
package enum BlueZ {
    package static let service: BusName = "org.bluez"
    package static let root = ObjectPath.root
    package static let managerPath: ObjectPath = "/org/bluez"

    package static let adapterInterface: InterfaceName = "org.bluez.Adapter1"
    package static let deviceInterface: InterfaceName = "org.bluez.Device1"
    package static let batteryInterface: InterfaceName = "org.bluez.Battery1"
    /// On each adapter when bluetoothd runs with experimental features (`-E`).
    package static let batteryProviderManagerInterface: InterfaceName = "org.bluez.BatteryProviderManager1"
    /// What a battery provider's objects implement.
    package static let batteryProviderInterface: InterfaceName = "org.bluez.BatteryProvider1"
    package static let inputInterface: InterfaceName = "org.bluez.Input1"
    package static let agentManagerInterface: InterfaceName = "org.bluez.AgentManager1"
    package static let agentInterface: InterfaceName = "org.bluez.Agent1"
    package static let gattServiceInterface: InterfaceName = "org.bluez.GattService1"
    package static let gattCharacteristicInterface: InterfaceName = "org.bluez.GattCharacteristic1"
    package static let gattDescriptorInterface: InterfaceName = "org.bluez.GattDescriptor1"

    /// The methods of BlueZ's interfaces that kblinkd calls (`org.bluez.Adapter1`, `Device1`, `AgentManager1`).
    package enum Method {
        /// `Adapter1.SetDiscoveryFilter(a{sv} filter)`.
        package static let setDiscoveryFilter: MemberName = "SetDiscoveryFilter"
        /// `Adapter1.StartDiscovery()`.
        package static let startDiscovery: MemberName = "StartDiscovery"
        /// `Adapter1.StopDiscovery()`.
        package static let stopDiscovery: MemberName = "StopDiscovery"
        /// `Adapter1.RemoveDevice(o device)`.
        package static let removeDevice: MemberName = "RemoveDevice"
        /// `Device1.Connect()`.
        package static let connect: MemberName = "Connect"
        /// `Device1.Disconnect()`.
        package static let disconnect: MemberName = "Disconnect"
        /// `Device1.ConnectProfile(s uuid)`.
        package static let connectProfile: MemberName = "ConnectProfile"
        /// `Device1.Pair()`.
        package static let pair: MemberName = "Pair"
        /// `Device1.CancelPairing()`.
        package static let cancelPairing: MemberName = "CancelPairing"
        /// `AgentManager1.RegisterAgent(o agent, s capability)`.
        package static let registerAgent: MemberName = "RegisterAgent"
        /// `AgentManager1.UnregisterAgent(o agent)`.
        package static let unregisterAgent: MemberName = "UnregisterAgent"
        /// `AgentManager1.RequestDefaultAgent(o agent)`.
        package static let requestDefaultAgent: MemberName = "RequestDefaultAgent"
    }

    /// The properties of BlueZ's interfaces that kblinkd writes.
    package enum Property {
        /// `Device1.Trusted` (`b`, read-write).
        package static let trusted: MemberName = "Trusted"
        /// `Adapter1.Powered` (`b`, read-write).
        package static let powered: MemberName = "Powered"
    }

    /// BlueZ's error names (`org.bluez.Error.*`).
    package enum Error {
        package static let failed: ErrorName = "org.bluez.Error.Failed"
        package static let inProgress: ErrorName = "org.bluez.Error.InProgress"
        package static let notReady: ErrorName = "org.bluez.Error.NotReady"
        package static let notSupported: ErrorName = "org.bluez.Error.NotSupported"
        package static let notPermitted: ErrorName = "org.bluez.Error.NotPermitted"
        package static let notAuthorized: ErrorName = "org.bluez.Error.NotAuthorized"
        package static let invalidArguments: ErrorName = "org.bluez.Error.InvalidArguments"
        package static let doesNotExist: ErrorName = "org.bluez.Error.DoesNotExist"
        package static let alreadyConnected: ErrorName = "org.bluez.Error.AlreadyConnected"
        package static let alreadyExists: ErrorName = "org.bluez.Error.AlreadyExists"
        package static let notConnected: ErrorName = "org.bluez.Error.NotConnected"
        package static let authenticationFailed: ErrorName = "org.bluez.Error.AuthenticationFailed"
        package static let authenticationCanceled: ErrorName = "org.bluez.Error.AuthenticationCanceled"
        package static let authenticationRejected: ErrorName = "org.bluez.Error.AuthenticationRejected"
        package static let authenticationTimeout: ErrorName = "org.bluez.Error.AuthenticationTimeout"
        package static let connectionAttemptFailed: ErrorName = "org.bluez.Error.ConnectionAttemptFailed"
        package static let rejected: ErrorName = "org.bluez.Error.Rejected"
        package static let canceled: ErrorName = "org.bluez.Error.Canceled"
    }
}
