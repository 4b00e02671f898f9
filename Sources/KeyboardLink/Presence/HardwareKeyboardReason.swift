/// One keyboard kblink looked at and whether it counts, with the reason: an entry of the Manager's
/// `HardwareKeyboardReasons` property (`a(sssbs)`).
public struct HardwareKeyboardReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Where kblink saw the keyboard.
    public var source: HardwareKeyboard.Source
    /// The Bluetooth address or the evdev node (as in `HardwareKeyboards`).
    public var id: String
    /// The device's name.
    public var name: String
    /// Whether it makes `HardwareKeyboardAttached` true.
    public var counts: Bool
    /// Why it counts or not, one sentence for people (`kblink status`, `kblink osk-agent --status`).
    public var reason: String

    /// Creates an entry.
    public init(source: HardwareKeyboard.Source, id: String, name: String, counts: Bool, reason: String) {
        self.source = source
        self.id = id
        self.name = name
        self.counts = counts
        self.reason = reason
    }

    /// The entry of a keyboard that counts.
    public init(counting keyboard: HardwareKeyboard, reason: String) {
        self.init(source: keyboard.source, id: keyboard.id, name: keyboard.name, counts: true, reason: reason)
    }

    /// `counts bluetooth C8:7F:54:0A:1B:2C "Aula F87": connected Bluetooth keyboard`.
    public var description: String {
        "\(counts ? "counts" : "ignored") \(source.rawValue) \(id) \"\(name)\": \(reason)"
    }
}
