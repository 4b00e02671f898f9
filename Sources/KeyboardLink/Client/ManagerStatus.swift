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

    /// Reads the status from `GetAll` values; missing values read as false or empty.
    public init(properties: [String: DBusValue]) {
        version = properties[KBlinkContract.Manager.versionProperty]?.stringValue ?? "unknown"
        hardwareKeyboardAttached =
            properties[KBlinkContract.Manager.hardwareKeyboardAttachedProperty]?.boolValue ?? false
        hardwareKeyboards = (properties[KBlinkContract.Manager.hardwareKeyboardsProperty]?.arrayValue ?? []).compactMap
        { entry in
            guard case .structure(let fields) = entry, fields.count == 3, let source = fields[0].stringValue,
                let id = fields[1].stringValue, let name = fields[2].stringValue
            else { return nil }
            return AttachedKeyboard(source: source, id: id, name: name)
        }
        bluetoothAvailable = properties[KBlinkContract.Manager.bluetoothAvailableProperty]?.boolValue ?? false
        blueZRunning = properties[KBlinkContract.Manager.blueZRunningProperty]?.boolValue ?? bluetoothAvailable
        discovering = properties[KBlinkContract.Manager.discoveringProperty]?.boolValue ?? false
    }
}
