/// One keyboard object of the daemon, as a client reads it.
public struct KeyboardInfo: Sendable, Equatable {
    public var path: ObjectPath
    public var address: String
    public var name: String
    public var alias: String
    public var paired: Bool
    public var trusted: Bool
    public var connected: Bool
    /// Battery levels by part, in the daemon's order.
    public var battery: [BatteryPart]
    public var firmware: [String: String]
    public var driver: String

    /// A battery level of one part of a keyboard (`main`, `left`, `right`).
    public struct BatteryPart: Sendable, Equatable {
        public var part: String
        public var level: UInt8

        public init(part: String, level: UInt8) {
            self.part = part
            self.level = level
        }
    }

    /// Reads a keyboard from its `org.kblink1.Keyboard` properties.
    public init(path: ObjectPath, properties: [String: DBusValue]) {
        self.path = path
        address = properties["Address"]?.stringValue ?? ""
        name = properties["Name"]?.stringValue ?? ""
        alias = properties["Alias"]?.stringValue ?? name
        paired = properties["Paired"]?.boolValue ?? false
        trusted = properties["Trusted"]?.boolValue ?? false
        connected = properties["Connected"]?.boolValue ?? false
        battery = (properties["Battery"]?.arrayValue ?? []).compactMap { entry in
            guard case .structure(let fields) = entry, fields.count == 2, let part = fields[0].stringValue,
                case .byte(let level) = fields[1]
            else { return nil }
            return BatteryPart(part: part, level: level)
        }
        var firmware: [String: String] = [:]
        if case .dictionary(_, _, let entries)? = properties["Firmware"]?.unwrapped {
            for entry in entries {
                if let key = entry.key.stringValue, let value = entry.value.stringValue { firmware[key] = value }
            }
        }
        self.firmware = firmware
        driver = properties["Driver"]?.stringValue ?? "none"
    }
}
