import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkFirmware

/// What the daemon exports for one keyboard, derived from BlueZ and the firmware cache.
package struct KeyboardState: Sendable, Equatable {
    package var address: BluetoothAddress
    package var devicePath: ObjectPath
    package var name: String
    package var alias: String
    package var paired: Bool
    package var trusted: Bool
    package var connected: Bool
    /// Battery levels by part (`main`, `left`, `right`, ...).
    package var battery: [(part: String, level: UInt8)]
    /// `a{ss}` firmware keys of docs/dbus-api.md.
    package var firmware: [String: String]
    /// `zmk-studio`, `via` or `none`.
    package var driver: String
    /// Whether BlueZ holds a bond for it (`Device1.Bonded`).
    package var bonded: Bool
    /// Whether it can type (`Health`), and the step tried or the reason (`HealthDetail`); from its healing ladder.
    package var health: KeyboardHealth
    package var healthDetail: String
    /// The last steps of the healing ladder (`Heals`), newest last.
    package var heals: [HealRecord]
    /// The last reconnect times in milliseconds (`ReconnectTimes`), newest last.
    package var reconnectTimes: [UInt32]
    /// A ZMK Studio keyboard's lock state as its Studio link last reported it (`StudioLock`); `unknown` while not
    /// connected, empty for a keyboard that does not speak ZMK Studio.
    package var studioLock: StudioLock = .notStudio
    /// The vendor and product IDs of its `Modalias` (nil when BlueZ has none, or one that does not parse): what a
    /// layout added for those IDs (`AddLayout`) is matched by.
    package var productIDs: BluetoothHIDKeyboard.ProductIDs?

    init?(device: BlueZDevice) {
        guard let address = BluetoothAddress(validating: device.address) else { return nil }
        self.address = address
        devicePath = device.path
        name = device.name ?? device.alias
        alias = device.alias
        paired = device.paired
        trusted = device.trusted
        bonded = device.bonded
        connected = device.connected
        battery = device.batteryPercentage.map { [("main", $0)] } ?? []
        firmware = [:]
        driver = "none"
        health = device.connected ? .working : (device.paired && device.trusted ? .asleep : .disconnected)
        healthDetail = ""
        heals = []
        reconnectTimes = []
        productIDs = device.modalias.flatMap { try? DeviceIdentity(modalias: $0) }.map {
            BluetoothHIDKeyboard.ProductIDs(vendor: $0.vendorID, product: $0.productID)
        }
    }

    package static func == (lhs: KeyboardState, rhs: KeyboardState) -> Bool {
        lhs.address == rhs.address && lhs.devicePath == rhs.devicePath && lhs.name == rhs.name
            && lhs.alias == rhs.alias && lhs.paired == rhs.paired && lhs.trusted == rhs.trusted
            && lhs.connected == rhs.connected && lhs.battery.map(\.part) == rhs.battery.map(\.part)
            && lhs.battery.map(\.level) == rhs.battery.map(\.level) && lhs.firmware == rhs.firmware
            && lhs.driver == rhs.driver && lhs.bonded == rhs.bonded && lhs.health == rhs.health
            && lhs.healthDetail == rhs.healthDetail && lhs.heals == rhs.heals
            && lhs.reconnectTimes == rhs.reconnectTimes && lhs.productIDs == rhs.productIDs
            && lhs.studioLock == rhs.studioLock
    }

    /// The exported `org.kblink1.Keyboard` property values, in the contract's order.
    var propertyValues: [KBlinkPropertyAssignment] {
        typealias Keyboard = KBlinkContract.Keyboard
        return [
            Keyboard.addressProperty.assigned(address.description),
            Keyboard.nameProperty.assigned(name),
            Keyboard.aliasProperty.assigned(alias),
            Keyboard.pairedProperty.assigned(paired),
            Keyboard.trustedProperty.assigned(trusted),
            Keyboard.connectedProperty.assigned(connected),
            Keyboard.batteryProperty.assigned(
                battery.map { KeyboardSummary.BatteryPart(part: $0.part, level: $0.level) }),
            // Sorted by key, so that the same firmware is the same value (`[String: String]` encodes sorted).
            Keyboard.firmwareProperty.assigned(firmware),
            Keyboard.driverProperty.assigned(driver),
            Keyboard.healthProperty.assigned(health),
            Keyboard.healthDetailProperty.assigned(healthDetail),
            Keyboard.healsProperty.assigned(heals),
            Keyboard.reconnectTimesProperty.assigned(reconnectTimes),
            Keyboard.studioLockProperty.assigned(studioLock),
        ]
    }
}
