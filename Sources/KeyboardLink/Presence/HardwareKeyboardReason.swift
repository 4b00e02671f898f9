/// One keyboard kblink looked at and whether it counts, with the reason: an entry of the Manager's
/// `HardwareKeyboardReasons` property (`a(sssbs)`).
package struct HardwareKeyboardReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Where kblink saw the keyboard.
    package var source: HardwareKeyboard.Source
    /// The Bluetooth address or the evdev node (as in `HardwareKeyboards`).
    package var id: String
    /// The device's name.
    package var name: String
    /// Whether it makes `HardwareKeyboardAttached` true.
    package var counts: Bool
    /// Why it counts or not, one sentence for people (`kblink status`, `kblink osk-agent --status`).
    package var reason: String

    /// Creates an entry.
    package init(source: HardwareKeyboard.Source, id: String, name: String, counts: Bool, reason: String) {
        self.source = source
        self.id = id
        self.name = name
        self.counts = counts
        self.reason = reason
    }

    /// The entry of a keyboard that counts.
    package init(counting keyboard: HardwareKeyboard, reason: String) {
        self.init(source: keyboard.source, id: keyboard.id, name: keyboard.name, counts: true, reason: reason)
    }

    /// `counts bluetooth C8:7F:54:0A:1B:2C "Aula F87": connected Bluetooth keyboard`.
    package var description: String {
        "\(counts ? "counts" : "ignored") \(source.rawValue) \(id) \"\(name)\": \(reason)"
    }
}
