import KeyboardLinkSupport

/// Everything kblink knows about a keyboard's firmware, identity and batteries, as of one refresh.
///
/// Built from raw reads by ``init(readings:vendorNames:)``, served as the `Firmware` (`a{ss}`) and `Battery`
/// (`a(sy)`) properties of `org.kblink1.Keyboard`, and kept per keyboard in the state directory
/// (``cacheData()``) so that `kblink info` answers while the keyboard sleeps.
package struct FirmwareInfo: Sendable, Equatable, Codable {
    /// Device Information 0x2A29.
    package var manufacturer: String?
    /// Device Information 0x2A24.
    package var model: String?
    /// Device Information 0x2A25.
    package var serial: String?
    /// Device Information 0x2A26.
    package var firmwareRevision: String?
    /// Device Information 0x2A27.
    package var hardwareRevision: String?
    /// Device Information 0x2A28.
    package var softwareRevision: String?
    /// Vendor and product, from the PnP ID or else from `Modalias`.
    package var identity: DeviceIdentity?
    /// The vendor's name, from libbluetooth or `usb.ids`.
    package var vendorName: String?
    /// One reading per battery, in part order.
    package var batteries: [BatteryReading]
    /// What was wrong with the values read, one sentence each (`serial number is not valid UTF-8`).
    package var notes: [String]
    /// When the values were read, to the whole second (the cache stores it as ISO 8601 text, which keeps seconds).
    package var readAt: WallClockTime

    /// Creates a value directly (tests, the simulator); the daemon uses ``init(readings:vendorNames:)``.
    package init(
        manufacturer: String? = nil, model: String? = nil, serial: String? = nil, firmwareRevision: String? = nil,
        hardwareRevision: String? = nil, softwareRevision: String? = nil, identity: DeviceIdentity? = nil,
        vendorName: String? = nil, batteries: [BatteryReading] = [], notes: [String] = [], readAt: WallClockTime
    ) {
        self.manufacturer = manufacturer
        self.model = model
        self.serial = serial
        self.firmwareRevision = firmwareRevision
        self.hardwareRevision = hardwareRevision
        self.softwareRevision = softwareRevision
        self.identity = identity
        self.vendorName = vendorName
        self.batteries = batteries
        self.notes = notes
        self.readAt = readAt.wholeSeconds
    }

    /// Who assigned the vendor ID.
    package var vendorSource: VendorIDSource? { identity?.source }
    /// The vendor ID.
    package var vendorID: UInt16? { identity?.vendorID }
    /// The product ID.
    package var productID: UInt16? { identity?.productID }
    /// The product version.
    package var productVersion: UInt16? { identity?.productVersion }

    /// The Device Information string of one field.
    package subscript(field: DeviceInformationField) -> String? {
        get {
            switch field {
            case .manufacturer: manufacturer
            case .model: model
            case .serial: serial
            case .firmwareRevision: firmwareRevision
            case .hardwareRevision: hardwareRevision
            case .softwareRevision: softwareRevision
            }
        }
        set {
            switch field {
            case .manufacturer: manufacturer = newValue
            case .model: model = newValue
            case .serial: serial = newValue
            case .firmwareRevision: firmwareRevision = newValue
            case .hardwareRevision: hardwareRevision = newValue
            case .softwareRevision: softwareRevision = newValue
            }
        }
    }
}
