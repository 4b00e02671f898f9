/// One hardware keyboard in use: an entry of the `HardwareKeyboards` property (`a(sss)`).
public struct HardwareKeyboard: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Where kblink saw the keyboard.
    public enum Source: String, Hashable, Sendable, Codable {
        /// A connected keyboard in BlueZ's model.
        case bluetooth
        /// A keyboard node in `/proc/bus/input/devices`.
        case evdev
    }

    /// Where kblink saw it.
    public var source: Source
    /// The Bluetooth address (`AA:BB:CC:DD:EE:FF`) or the evdev node (`/dev/input/event3`).
    public var id: String
    /// The device's name.
    public var name: String

    /// Creates an entry.
    public init(source: Source, id: String, name: String) {
        self.source = source
        self.id = id
        self.name = name
    }

    /// `bluetooth C8:7F:54:0A:1B:2C "Aula F87"`.
    public var description: String { "\(source.rawValue) \(id) \"\(name)\"" }
}
