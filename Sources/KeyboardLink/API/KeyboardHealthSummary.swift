import KeyboardLinkDBus

/// What `org.kblink1.Manager.HealthSummary` answers: how many keyboards kblinkd exports in each health, and the
/// ones that need a look: connected without typing (`waiting`, `healing`) or given up on (`failed`). `kblink status`
/// shows it with one small reply however many keyboards there are (`ListKeyboards` carries every field of every
/// keyboard). On the wire `(a{su}a(ossss))`.
public struct KeyboardHealthSummary: Sendable, Equatable, DBusWireMapped {
    /// A keyboard that needs a look; on the wire `(ossss)`: path, address, alias, health, health detail.
    public struct Entry: Sendable, Equatable, DBusWireMapped {
        /// The keyboard's object path.
        public var path: ObjectPath
        /// Its Bluetooth address.
        public var address: String
        /// The name the user gave it, or the device's (from the device: print it with care).
        public var alias: String
        /// Its health: `waiting`, `healing` or `failed`.
        public var health: KeyboardHealth
        /// The step being tried, or why it failed and what to do.
        public var healthDetail: String

        /// An entry as given.
        public init(path: ObjectPath, address: String, alias: String, health: KeyboardHealth, healthDetail: String) {
            self.path = path
            self.address = address
            self.alias = alias
            self.health = health
            self.healthDetail = healthDetail
        }

        /// `(ossss)`.
        public typealias WireForm = DBusStruct<ObjectPath, String, String, KeyboardHealth, String>

        /// An entry from `(ossss)`.
        public init(wireForm: WireForm) {
            (path, address, alias, health, healthDetail) = wireForm.fields
        }

        /// The entry as `(ossss)`.
        public var wireForm: WireForm { WireForm(path, address, alias, health, healthDetail) }
    }

    /// How many keyboards are in each health, by its word (``KeyboardHealth/wireForm``); a health with none is
    /// left out. Words, not ``KeyboardHealth`` values: a count under a word a newer kblinkd adds still arrives.
    public var counts: [String: UInt32]
    /// The keyboards whose health is `waiting`, `healing` or `failed`, by address.
    public var needingAttention: [Entry]

    /// A summary as given.
    public init(counts: [String: UInt32], needingAttention: [Entry]) {
        self.counts = counts
        self.needingAttention = needingAttention
    }

    /// How many keyboards are in `health`.
    public func count(of health: KeyboardHealth) -> Int { Int(counts[health.wireForm] ?? 0) }

    /// Whether a keyboard in `health` is listed in ``needingAttention``.
    public static func needsAttention(_ health: KeyboardHealth) -> Bool {
        switch health {
        case .waiting, .healing, .failed: true
        case .working, .asleep, .disconnected: false
        }
    }

    /// `(a{su}a(ossss))`.
    public typealias WireForm = DBusStruct<[String: UInt32], [Entry]>

    /// A summary from `(a{su}a(ossss))`.
    public init(wireForm: WireForm) {
        (counts, needingAttention) = wireForm.fields
    }

    /// The summary as `(a{su}a(ossss))`.
    public var wireForm: WireForm { WireForm(counts, needingAttention) }
}
