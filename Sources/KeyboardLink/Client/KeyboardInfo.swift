import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkSupport

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

    /// This keyboard with the text its device chose (name, alias, firmware strings) made safe for one line of a
    /// terminal (`String.escapedForTerminalLine`): no escape sequence, newline, bidi control or zero-width
    /// character from a device reaches the terminal. For text output; `--json` carries the text as it is, escaped
    /// by JSON.
    public var forDisplay: KeyboardInfo {
        var shown = self
        shown.name = name.escapedForTerminalLine
        shown.alias = alias.escapedForTerminalLine
        shown.firmware = firmware.mapValues(\.escapedForTerminalLine)
        // kblinkd's notes on what it read are one a line (the key `FirmwareInfo.notesKey`): each line escaped, the
        // lines kept.
        if let notes = firmware["Notes"] {
            shown.firmware["Notes"] = notes.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0).escapedForTerminalLine }.joined(separator: "\n")
        }
        return shown
    }

    /// A battery level of one part of a keyboard (`main`, `left`, `right`).
    public struct BatteryPart: Sendable, Equatable {
        public var part: String
        public var level: UInt8

        public init(part: String, level: UInt8) {
            self.part = part
            self.level = level
        }
    }

    /// Reads a keyboard from one entry of `Manager.ListKeyboards`
    /// (`(o path, s address, s name, s alias, b paired, b trusted, b connected, a(sy) battery, a{ss} firmware,
    /// s driver)`).
    /// - Throws: ``DBusError`` (`InvalidArgs`) naming what is wrong when the entry has another shape.
    public init(listEntry: DBusValue) throws {
        guard case .structure(let fields) = listEntry, fields.count == 10, case .objectPath(let path) = fields[0],
            case .string(let address) = fields[1], case .string(let name) = fields[2],
            case .string(let alias) = fields[3], case .boolean(let paired) = fields[4],
            case .boolean(let trusted) = fields[5], case .boolean(let connected) = fields[6],
            case .array(_, let batteryEntries) = fields[7], case .dictionary(_, _, let firmwareEntries) = fields[8],
            case .string(let driver) = fields[9]
        else {
            throw DBusError.invalidArgs(
                "a ListKeyboards entry has the shape '\(listEntry.type)', not '(osssbbba(sy)a{ss}s)'")
        }
        var battery: [BatteryPart] = []
        battery.reserveCapacity(batteryEntries.count)
        for entry in batteryEntries {
            guard case .structure(let part) = entry, part.count == 2, case .string(let name) = part[0],
                case .byte(let level) = part[1]
            else { throw DBusError.invalidArgs("a ListKeyboards battery entry is '\(entry.type)', not '(sy)'") }
            battery.append(BatteryPart(part: name, level: level))
        }
        var firmware: [String: String] = [:]
        firmware.reserveCapacity(firmwareEntries.count)
        for entry in firmwareEntries {
            guard case .string(let key) = entry.key, case .string(let value) = entry.value else {
                throw DBusError.invalidArgs("a ListKeyboards firmware entry is not a string pair")
            }
            firmware[key] = value
        }
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
    }

    /// Reads a keyboard from its `org.kblink1.Keyboard` properties.
    public init(path: ObjectPath, properties: [String: DBusValue]) {
        self.path = path
        address = properties[KBlinkContract.Keyboard.addressProperty]?.stringValue ?? ""
        name = properties[KBlinkContract.Keyboard.nameProperty]?.stringValue ?? ""
        alias = properties[KBlinkContract.Keyboard.aliasProperty]?.stringValue ?? name
        paired = properties[KBlinkContract.Keyboard.pairedProperty]?.boolValue ?? false
        trusted = properties[KBlinkContract.Keyboard.trustedProperty]?.boolValue ?? false
        connected = properties[KBlinkContract.Keyboard.connectedProperty]?.boolValue ?? false
        battery = (properties[KBlinkContract.Keyboard.batteryProperty]?.arrayValue ?? []).compactMap { entry in
            guard case .structure(let fields) = entry, fields.count == 2, let part = fields[0].stringValue,
                case .byte(let level) = fields[1]
            else { return nil }
            return BatteryPart(part: part, level: level)
        }
        var firmware: [String: String] = [:]
        if case .dictionary(_, _, let entries)? = properties[KBlinkContract.Keyboard.firmwareProperty]?.unwrapped {
            for entry in entries {
                if let key = entry.key.stringValue, let value = entry.value.stringValue { firmware[key] = value }
            }
        }
        self.firmware = firmware
        driver = properties[KBlinkContract.Keyboard.driverProperty]?.stringValue ?? "none"
    }
}
