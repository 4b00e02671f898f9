import KeyboardLinkDBus

/// Where kblinkd saw a hardware keyboard: the first field of the Manager's `HardwareKeyboards` and
/// `HardwareKeyboardReasons` entries.
public enum HardwareKeyboardSource: String, Hashable, Sendable, CaseIterable {
    /// A connected keyboard in BlueZ's model.
    case bluetooth
    /// A keyboard node in `/proc/bus/input/devices`.
    case evdev

    /// Reads the wire text.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for another text.
    init(wire text: String) throws(DBusError) {
        guard let source = Self(rawValue: text) else {
            throw DBusError.invalidArgs(
                "unknown hardware keyboard source \"\(text.prefix(40))\"; expected bluetooth or evdev")
        }
        self = source
    }
}

/// One hardware keyboard in use: an entry of the Manager's `HardwareKeyboards` property (`a(sss)`).
public struct HardwareKeyboardEntry: Hashable, Sendable, DBusWireMapped, CustomStringConvertible {
    /// Where kblinkd saw it.
    public var source: HardwareKeyboardSource
    /// The Bluetooth address (`AA:BB:CC:DD:EE:FF`) or the evdev node (`/dev/input/event3`).
    public var id: String
    /// The device's name.
    public var name: String

    /// An entry as given.
    public init(source: HardwareKeyboardSource, id: String, name: String) {
        self.source = source
        self.id = id
        self.name = name
    }

    /// `(sss)`: source, id, name.
    public typealias WireForm = DBusStruct<String, String, String>

    /// An entry from `(sss)`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for an unknown source.
    public init(wireForm: WireForm) throws {
        let fields = wireForm.fields
        self.init(source: try HardwareKeyboardSource(wire: fields.0), id: fields.1, name: fields.2)
    }

    /// The entry as `(sss)`.
    public var wireForm: WireForm { WireForm(source.rawValue, id, name) }

    /// `bluetooth C8:7F:54:0A:1B:2C "Aula F87"`.
    public var description: String { "\(source.rawValue) \(id) \"\(name)\"" }
}

/// One keyboard kblinkd looked at and whether it counts, with the reason: an entry of the Manager's
/// `HardwareKeyboardReasons` property (`a(sssbs)`).
public struct HardwareKeyboardReasonEntry: Hashable, Sendable, DBusRepresentable, CustomStringConvertible {
    /// Where kblinkd saw the keyboard.
    public var source: HardwareKeyboardSource
    /// The Bluetooth address or the evdev node (as in `HardwareKeyboards`).
    public var id: String
    /// The device's name.
    public var name: String
    /// Whether it makes `HardwareKeyboardAttached` true.
    public var counts: Bool
    /// Why it counts or not, one sentence for people (`kblink status`, `kblink osk-agent --status`).
    public var reason: String

    /// An entry as given.
    public init(source: HardwareKeyboardSource, id: String, name: String, counts: Bool, reason: String) {
        self.source = source
        self.id = id
        self.name = name
        self.counts = counts
        self.reason = reason
    }

    /// `(sssbs)`: source, id, name, counts, reason.
    public static var dbusType: DBusType { .structure([.string, .string, .string, .boolean, .string]) }

    /// Decodes `(sssbs)`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for another type or an unknown source.
    public init(dbusValue: DBusValue) throws {
        guard case .structure(let fields) = dbusValue, fields.count == 5, let source = fields[0].stringValue,
            let id = fields[1].stringValue, let name = fields[2].stringValue, let counts = fields[3].boolValue,
            let reason = fields[4].stringValue
        else {
            throw DBusError.invalidArgs("expected a hardware keyboard reason (sssbs), got \(dbusValue.type)")
        }
        self.init(source: try HardwareKeyboardSource(wire: source), id: id, name: name, counts: counts, reason: reason)
    }

    /// Encodes as `(sssbs)`.
    public var dbusValue: DBusValue {
        .structure([.string(source.rawValue), .string(id), .string(name), .boolean(counts), .string(reason)])
    }

    /// `counts bluetooth C8:7F:54:0A:1B:2C "Aula F87": connected Bluetooth keyboard`.
    public var description: String {
        "\(counts ? "counts" : "ignored") \(source.rawValue) \(id) \"\(name)\": \(reason)"
    }
}
