/// One hardware keyboard in use: an entry of the `HardwareKeyboards` property (`a(sss)`).
package struct HardwareKeyboard: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Where kblink saw the keyboard.
    package enum Source: String, Hashable, Sendable, Codable {
        /// A connected keyboard in BlueZ's model.
        case bluetooth
        /// A keyboard node in `/proc/bus/input/devices`.
        case evdev
    }

    /// Where kblink saw it.
    package var source: Source
    /// The Bluetooth address (`AA:BB:CC:DD:EE:FF`) or the evdev node (`/dev/input/event3`).
    package var id: String
    /// The device's name.
    package var name: String

    /// Creates an entry.
    package init(source: Source, id: String, name: String) {
        self.source = source
        self.id = id
        self.name = name
    }

    /// `bluetooth C8:7F:54:0A:1B:2C "Aula F87"`.
    package var description: String { "\(source.rawValue) \(id) \"\(name)\"" }
}
