import KBlinkAPI
import KeyboardLinkDBus

extension KeyboardState {
    /// This keyboard as `org.kblink1.Manager.ListKeyboards` answers it (``KeyboardSummary``); the values are those of
    /// ``propertyValues`` (an integration test compares the two answers keyboard by keyboard) and `bonded`.
    var summary: KeyboardSummary {
        KeyboardSummary(
            path: KBlink.keyboardPath(address), address: address.description, name: name, alias: alias,
            paired: paired, trusted: trusted, connected: connected,
            battery: battery.map { KeyboardSummary.BatteryPart(part: $0.part, level: $0.level) }, firmware: firmware,
            driver: driver, bonded: bonded, health: health, healthDetail: healthDetail)
    }
}
