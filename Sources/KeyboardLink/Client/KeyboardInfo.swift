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
        func read<Value>(_ property: KBlinkProperty<Value>) -> Value? { try? property.value(in: properties) }
        let name = read(Keyboard.nameProperty) ?? ""
        let paired = read(Keyboard.pairedProperty) ?? false
        self.init(
            path: path, address: read(Keyboard.addressProperty) ?? "", name: name,
            alias: read(Keyboard.aliasProperty) ?? name, paired: paired,
            trusted: read(Keyboard.trustedProperty) ?? false, connected: read(Keyboard.connectedProperty) ?? false,
            battery: read(Keyboard.batteryProperty) ?? [], firmware: read(Keyboard.firmwareProperty) ?? [:],
            driver: read(Keyboard.driverProperty) ?? "none", bonded: paired,
            health: read(Keyboard.healthProperty)
                ?? ((read(Keyboard.connectedProperty) ?? false) ? .working : .disconnected),
            healthDetail: read(Keyboard.healthDetailProperty) ?? "")
    }
}
