import KeyboardLinkBlueZ

/// One device of `/proc/bus/input/devices`.
package struct InputDevice: Hashable, Sendable {
    /// `I: Bus=`.
    package var bus: InputBus
    /// `I: Vendor=`.
    package var vendor: UInt16
    /// `I: Product=`.
    package var product: UInt16
    /// `I: Version=`.
    package var version: UInt16
    /// `N: Name=`, without the quotes.
    package var name: String
    /// `P: Phys=` (for a Bluetooth device, the adapter's address).
    package var phys: String
    /// `S: Sysfs=`, e.g. `/devices/platform/i8042/serio0/input/input3`.
    package var sysfsPath: String
    /// `U: Uniq=` (for a Bluetooth device, its address; any case).
    package var uniq: String
    /// `H: Handlers=`, e.g. `["sysrq", "kbd", "leds", "event3"]`.
    package var handlers: [String]
    /// The `B:` lines by name: `EV`, `KEY`, `PROP`, `MSC`, `LED`, `REL`, `ABS`, `SW`...
    package var bitmaps: [String: CapabilityBitmap]
    /// Whether udev gave the device the property `KBLINK_IGNORE=1` (``UdevDatabase``): it never counts.
    package var ignoredByUdev = false

    /// Creates a device.
    package init(
        bus: InputBus, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0, name: String = "",
        phys: String = "", sysfsPath: String = "", uniq: String = "", handlers: [String] = [],
        bitmaps: [String: CapabilityBitmap] = [:]
    ) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.name = name
        self.phys = phys
        self.sysfsPath = sysfsPath
        self.uniq = uniq
        self.handlers = handlers
        self.bitmaps = bitmaps
    }

    /// `EV_KEY`, the event type of keys and buttons.
    static let evKey = 1

    /// The evdev node name from the handlers, `event3`; nil when the device has none.
    package var eventNode: String? {
        handlers.first { handler in
            handler.hasPrefix("event") && handler.count > 5 && handler.dropFirst(5).allSatisfy(\.isASCIIDigit)
        }
    }

    /// The evdev node path, `/dev/input/event3`; nil when the device has no event handler.
    package var devicePath: String? { eventNode.map { "/dev/input/" + $0 } }

    /// The node's number (3 for `event3`), for ordering.
    var eventNumber: Int? { eventNode.flatMap { Int($0.dropFirst(5)) } }

    /// The Bluetooth address in `U: Uniq=`, when it holds one.
    package var bluetoothAddress: BluetoothAddress? { BluetoothAddress(validating: uniq) }

    /// Whether this is the input device of a Bluetooth device (on the Bluetooth bus, its address in `Uniq`), of any
    /// kind: what BlueZ's HID and HoG make for a keyboard that connected, whether or not it passes the keyboard
    /// rule.
    package var isBluetoothInput: Bool { bus == .bluetooth && bluetoothAddress != nil }

    /// systemd's `ID_INPUT_KEYBOARD` rule: `EV_KEY` is set and so are all of key codes 1-31 (`KEY_ESC` to `KEY_S`),
    /// i.e. `(KEY word 0 & 0xFFFFFFFE) == 0xFFFFFFFE`. Power buttons, lid switches, mice and consumer-control
    /// nodes do not pass.
    package var isKeyboard: Bool {
        guard bitmaps["EV"]?.contains(Self.evKey) == true, let keys = bitmaps["KEY"] else { return false }
        return keys.word(0) & 0xFFFF_FFFE == 0xFFFF_FFFE
    }

    /// Whether the device is made by software rather than hardware: its sysfs path is under `/devices/virtual/`
    /// (uinput remappers such as keyd, which claim every key). The exception is BlueZ's HID-over-GATT devices:
    /// BlueZ creates LE keyboards through uhid, so they live under `/devices/virtual/misc/uhid/` on the Bluetooth
    /// bus, and they are real keyboards.
    package var isVirtual: Bool {
        guard sysfsPath.hasPrefix("/devices/virtual/") else { return false }
        return !(sysfsPath.hasPrefix("/devices/virtual/misc/uhid/") && bus == .bluetooth)
    }
}

extension Character {
    var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}
