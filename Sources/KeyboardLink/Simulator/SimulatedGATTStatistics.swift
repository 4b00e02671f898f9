import KeyboardLinkBlueZ

/// What a simulated GATT server saw for one device, for tests that check how a client behaves without timing it.
package struct SimulatedGATTStatistics: Sendable, Equatable {
    /// One `WriteValue` received.
    package struct Write: Sendable, Equatable {
        /// The characteristic or descriptor written.
        package var uuid: BluetoothUUID
        /// The bytes written.
        package var value: [UInt8]
        /// The `type` option (`request` when absent).
        package var type: String
    }

    /// `ReadValue` calls received (characteristics and descriptors).
    package var reads = 0
    /// The most `ReadValue` calls that were in flight at the same moment: above 1 proves the client reads in
    /// parallel.
    package var maximumConcurrentReads = 0
    /// Every write, in order.
    package var writes: [Write] = []
    /// `StartNotify` calls that started a session.
    package var notifySessionsStarted = 0
    /// `StartNotify` calls refused because a `Device1.Disconnect` of the device was under way.
    package var startNotifyRefusedWhileDisconnecting = 0
    /// `StopNotify` calls that ended a session.
    package var notifySessionsStopped = 0
    /// `StopNotify` calls received for an exported characteristic, whether they ended a session or were refused.
    package var stopNotifyCalls = 0
}
