/// The `Device1` properties that tell what kind of device a Bluetooth device is: the classifier's input.
package struct DeviceTraits: Hashable, Sendable {
    /// `Class` (classic Bluetooth only); nil when BlueZ does not report it.
    package var classOfDevice: ClassOfDevice?
    /// `Appearance` (Bluetooth LE only); nil when BlueZ does not report it.
    package var appearance: DeviceAppearance?
    /// `Icon`, which BlueZ derives from the class or the appearance (`input-keyboard`, `phone`, ...).
    package var icon: String?
    /// `UUIDs`: the service classes the device announced.
    package var uuids: [BluetoothUUID]

    /// Creates traits from typed values.
    package init(
        classOfDevice: ClassOfDevice? = nil, appearance: DeviceAppearance? = nil, icon: String? = nil,
        uuids: [BluetoothUUID] = []
    ) {
        self.classOfDevice = classOfDevice
        self.appearance = appearance
        self.icon = icon
        self.uuids = uuids
    }

    /// Creates traits from the raw property values as they arrive from BlueZ (`u`, `q`, `s`, `as`).
    /// UUID texts that do not parse are ignored: they cannot be a HID service.
    package init(classOfDevice: UInt32?, appearance: UInt16?, icon: String?, uuidStrings: [String]) {
        self.init(
            classOfDevice: classOfDevice.map(ClassOfDevice.init), appearance: appearance.map(DeviceAppearance.init),
            icon: icon, uuids: uuidStrings.compactMap(BluetoothUUID.init(validating:)))
    }
}
