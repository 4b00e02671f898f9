import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkSupport

/// One keyboard object of the daemon, as a client reads it: the `ListKeyboards` entry (``KeyboardSummary``).
public typealias KeyboardInfo = KeyboardSummary

extension KeyboardSummary {
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

    /// Reads a keyboard from its `org.kblink1.Keyboard` properties; `bonded`, which no property carries, is taken
    /// to be `paired` (as BlueZ reports it where it does not say).
    public init(path: ObjectPath, properties: [String: DBusValue]) {
        typealias Keyboard = KBlinkContract.Keyboard
        let name = properties[Keyboard.nameProperty]?.stringValue ?? ""
        let paired = properties[Keyboard.pairedProperty]?.boolValue ?? false
        var firmware: [String: String] = [:]
        if case .dictionary(_, _, let entries)? = properties[Keyboard.firmwareProperty]?.unwrapped {
            for entry in entries {
                if let key = entry.key.stringValue, let value = entry.value.stringValue { firmware[key] = value }
            }
        }
        self.init(
            path: path, address: properties[Keyboard.addressProperty]?.stringValue ?? "", name: name,
            alias: properties[Keyboard.aliasProperty]?.stringValue ?? name, paired: paired,
            trusted: properties[Keyboard.trustedProperty]?.boolValue ?? false,
            connected: properties[Keyboard.connectedProperty]?.boolValue ?? false,
            battery: (try? [BatteryPart](
                dbusValue: properties[Keyboard.batteryProperty]?.unwrapped
                    ?? .array(
                        BatteryPart.dbusType, []))) ?? [],
            firmware: firmware, driver: properties[Keyboard.driverProperty]?.stringValue ?? "none", bonded: paired,
            health: properties[Keyboard.healthProperty].flatMap { try? KeyboardHealth(dbusValue: $0.unwrapped) }
                ?? (properties[Keyboard.connectedProperty]?.boolValue == true ? .working : .disconnected))
    }
}
