import KeyboardLinkBlueZ

/// What a simulated GATT server saw for one device, for tests that check how a client behaves without timing it.
public struct SimulatedGATTStatistics: Sendable, Equatable {
    /// One `WriteValue` received.
    public struct Write: Sendable, Equatable {
        /// The characteristic or descriptor written.
        public var uuid: BluetoothUUID
        /// The bytes written.
        public var value: [UInt8]
        /// The `type` option (`request` when absent).
        public var type: String
    }

    /// `ReadValue` calls received (characteristics and descriptors).
    public var reads = 0
    /// The most `ReadValue` calls that were in flight at the same moment: above 1 proves the client reads in
    /// parallel.
    public var maximumConcurrentReads = 0
    /// Every write, in order.
    public var writes: [Write] = []
    /// `StartNotify` calls that started a session.
    public var notifySessionsStarted = 0
    /// `StopNotify` calls that ended a session.
    public var notifySessionsStopped = 0
    /// `StopNotify` calls received for an exported characteristic, whether they ended a session or were refused.
    public var stopNotifyCalls = 0
}
