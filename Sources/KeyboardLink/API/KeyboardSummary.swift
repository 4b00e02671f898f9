import KeyboardLinkDBus

/// One keyboard as `org.kblink1.Manager.ListKeyboards` answers it: everything `kblink list` shows, typed, with no
/// variants. Its one codec is used by both sides: kblinkd builds the answer from these values, the client reads
/// them back; the D-Bus type is derived from the fields, so a field added here is a field on the wire.
///
/// On the wire `(osssbbba(sy)a{ss}sbss)`: path, address, name, alias, paired, trusted, connected, battery, firmware,
/// driver, bonded, health, health detail. Its JSON form (``encode(to:)``) is what `kblink list --json` prints.
public struct KeyboardSummary: Sendable, Equatable, DBusWireMapped {
    /// The keyboard's object path.
    public var path: ObjectPath
    /// Its Bluetooth address (`AA:BB:CC:DD:EE:FF`).
    public var address: String
    /// The name the device gives itself.
    public var name: String
    /// The name the user gave it, or the device's.
    public var alias: String
    /// Whether it is paired.
    public var paired: Bool
    /// Whether it is trusted (may connect without asking).
    public var trusted: Bool
    /// Whether it is connected.
    public var connected: Bool
    /// Battery levels by part, in the daemon's order.
    public var battery: [BatteryPart]
    /// The `Firmware` property's keys and values.
    public var firmware: [String: String]
    /// The driver kblinkd writes keymaps with: `zmk-studio`, `via` or `none`.
    public var driver: String
    /// Whether BlueZ holds a bond (stored keys) for it: a keyboard paired without one must pair again each time it
    /// connects (BlueZ's `Device1.Bonded`; as `paired` where BlueZ does not say).
    public var bonded: Bool
    /// Whether it can type (its `Health` property, ``KeyboardHealth``).
    public var health: KeyboardHealth
    /// The healing step being tried, or why it failed and what to do (its `HealthDetail` property; empty while it
    /// works).
    public var healthDetail: String

    /// A battery level of one part of a keyboard (`main`, `left`, `right`); on the wire `(sy)`.
    public struct BatteryPart: Sendable, Equatable, Encodable, DBusWireMapped {
        /// The part.
        public var part: String
        /// The level in percent.
        public var level: UInt8

        /// A part's level as given.
        public init(part: String, level: UInt8) {
            self.part = part
            self.level = level
        }

        /// `(sy)`.
        public init(wireForm: DBusStruct<String, UInt8>) {
            (part, level) = wireForm.fields
        }
        /// `(sy)`.
        public var wireForm: DBusStruct<String, UInt8> { DBusStruct(part, level) }
    }

    /// A summary as given.
    public init(
        path: ObjectPath, address: String, name: String, alias: String, paired: Bool, trusted: Bool, connected: Bool,
        battery: [BatteryPart], firmware: [String: String], driver: String, bonded: Bool,
        health: KeyboardHealth, healthDetail: String = ""
    ) {
        self.path = path
        self.address = address
        self.name = name
        self.alias = alias
        self.paired = paired
        self.trusted = trusted
        self.connected = connected
        self.battery = battery
        self.firmware = firmware
        self.driver = driver
        self.bonded = bonded
        self.health = health
        self.healthDetail = healthDetail
    }

    /// `(osssbbba(sy)a{ss}sbss)`: the fields in order.
    public typealias WireForm = DBusStruct<
        ObjectPath, String, String, String, Bool, Bool, Bool, [BatteryPart], [String: String], String, Bool,
        KeyboardHealth, String
    >

    /// A summary from its wire fields.
    public init(wireForm: WireForm) {
        let fields = wireForm.fields
        self.init(
            path: fields.0, address: fields.1, name: fields.2, alias: fields.3, paired: fields.4, trusted: fields.5,
            connected: fields.6, battery: fields.7, firmware: fields.8, driver: fields.9, bonded: fields.10,
            health: fields.11, healthDetail: fields.12)
    }

    /// Reads a summary straight from the wire, field by field in ``WireForm``'s order. `kblink list` reads a
    /// thousand of these: going through ``WireForm`` copies each one's 13-field tuple through the runtime's generic
    /// value witnesses (a third of the decoding, docs/performance.md). A test checks this against the wire form.
    public init(dbusWire reader: inout DBusWireReader) throws {
        try reader.align(8)
        self.init(
            path: try reader.next(ObjectPath.self), address: try reader.next(String.self),
            name: try reader.next(String.self), alias: try reader.next(String.self), paired: try reader.next(Bool.self),
            trusted: try reader.next(Bool.self), connected: try reader.next(Bool.self),
            battery: try reader.next([BatteryPart].self), firmware: try reader.next([String: String].self),
            driver: try reader.next(String.self), bonded: try reader.next(Bool.self),
            health: try reader.next(KeyboardHealth.self), healthDetail: try reader.next(String.self))
    }

    /// The fields in wire order.
    public var wireForm: WireForm {
        WireForm(
            path, address, name, alias, paired, trusted, connected, battery, firmware, driver, bonded, health,
            healthDetail)
    }
}

extension KeyboardSummary: Encodable {
    private enum CodingKeys: String, CodingKey {
        case address, name, alias, paired, trusted, connected, bonded, battery, driver, health, healthDetail,
            firmware, path
    }

    /// A `Firmware` entry's key in camelCase, as every JSON key kblink prints (`FirmwareRevision` ->
    /// `firmwareRevision`).
    private struct FirmwareKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) {
            // Keys start with an ASCII capital (kblinkd's names); anything else goes the general way.
            if let first = stringValue.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") {
                var bytes = Array(stringValue.utf8)
                bytes[0] = first + 0x20
                self.stringValue = String(decoding: bytes, as: UTF8.self)
            } else {
                self.stringValue = stringValue.prefix(1).lowercased() + stringValue.dropFirst()
            }
        }
        init?(intValue: Int) { nil }
    }

    /// The JSON form (`kblink list --json`, the start of `kblink info --json`): the fields by their names, the
    /// health by its word, the firmware entries sorted by key, the path last.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(name, forKey: .name)
        try container.encode(alias, forKey: .alias)
        try container.encode(paired, forKey: .paired)
        try container.encode(trusted, forKey: .trusted)
        try container.encode(connected, forKey: .connected)
        try container.encode(bonded, forKey: .bonded)
        try container.encode(battery, forKey: .battery)
        try container.encode(driver, forKey: .driver)
        try container.encode(health.rawValue, forKey: .health)
        try container.encode(healthDetail, forKey: .healthDetail)
        var entries = container.nestedContainer(keyedBy: FirmwareKey.self, forKey: .firmware)
        var previous: String?
        for (key, value) in firmware.sorted(by: { $0.key < $1.key }) {
            let jsonKey = FirmwareKey(stringValue: key)
            // Two entries that differ only in their first letter's case have one camelCase key: the first is kept.
            guard jsonKey.stringValue != previous else { continue }
            previous = jsonKey.stringValue
            try entries.encode(value, forKey: jsonKey)
        }
        try container.encode(path.rawValue, forKey: .path)
    }
}
