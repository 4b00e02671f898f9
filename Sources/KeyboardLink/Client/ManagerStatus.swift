import KBlinkAPI
import KeyboardLinkDBus

/// The Manager's properties, as a client reads them.
public struct ManagerStatus: Sendable, Equatable {
    /// One attached hardware keyboard.
    public struct AttachedKeyboard: Sendable, Equatable {
        /// `bluetooth` or `evdev`.
        public var source: String
        /// An address or `/dev/input/eventN`.
        public var id: String
        public var name: String

        public init(source: String, id: String, name: String) {
            self.source = source
            self.id = id
            self.name = name
        }
    }

    public var version: String
    public var hardwareKeyboardAttached: Bool
    public var hardwareKeyboards: [AttachedKeyboard]
    public var bluetoothAvailable: Bool
    public var blueZRunning: Bool
    public var discovering: Bool

    /// Reads the status from `GetAll` values; missing values, or values of another type, read as false or empty.
    public init(properties: [String: DBusValue]) {
        typealias Manager = KBlinkContract.Manager
        func read<Value>(_ property: KBlinkProperty<Value>) -> Value? { try? property.value(in: properties) }
        version = read(Manager.versionProperty) ?? "unknown"
        hardwareKeyboardAttached = read(Manager.hardwareKeyboardAttachedProperty) ?? false
        // Row by row, as text: a source a newer kblinkd adds is shown, not a reason to drop the list.
        let rows = try? [DBusStruct<String, String, String>](
            dbusValue: properties[Manager.hardwareKeyboardsProperty]?.unwrapped ?? .array(.string, []))
        hardwareKeyboards = (rows ?? []).map {
            let (source, id, name) = $0.fields
            return AttachedKeyboard(source: source, id: id, name: name)
        }
        bluetoothAvailable = read(Manager.bluetoothAvailableProperty) ?? false
        blueZRunning = read(Manager.blueZRunningProperty) ?? bluetoothAvailable
        discovering = read(Manager.discoveringProperty) ?? false
    }
}
