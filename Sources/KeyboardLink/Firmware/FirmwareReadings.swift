import KeyboardLinkSupport

/// The raw values read from one keyboard in one refresh: the input of ``FirmwareInfo/init(readings:vendorNames:)``.
///
/// A characteristic the keyboard lacks, or whose read failed, is simply absent: that is normal, not an error.
package struct FirmwareReadings: Sendable, Equatable {
    /// The Device Information strings, as read (`ReadValue` results).
    package var strings: [DeviceInformationField: [UInt8]]
    /// The PnP ID characteristic (0x2A50) value.
    package var pnpID: [UInt8]?
    /// BlueZ's `Device1.Modalias`.
    package var modalias: String?
    /// Every Battery Level characteristic (0x2A19), in GATT handle order (BlueZ's object path order).
    package var batteryLevels: [RawBatteryLevel]
    /// BlueZ's `Battery1.Percentage`, which reports the first Battery Service.
    package var battery1Percentage: UInt8?
    /// When the values were read.
    package var readAt: WallClockTime

    /// Creates readings; everything defaults to absent.
    package init(
        strings: [DeviceInformationField: [UInt8]] = [:], pnpID: [UInt8]? = nil, modalias: String? = nil,
        batteryLevels: [RawBatteryLevel] = [], battery1Percentage: UInt8? = nil, readAt: WallClockTime
    ) {
        self.strings = strings
        self.pnpID = pnpID
        self.modalias = modalias
        self.batteryLevels = batteryLevels
        self.battery1Percentage = battery1Percentage
        self.readAt = readAt
    }
}

/// One Battery Level characteristic as read: its value and its user description descriptor (0x2901), if any.
package struct RawBatteryLevel: Sendable, Equatable {
    /// The characteristic value (one byte when well formed).
    package var value: [UInt8]
    /// The Characteristic User Description descriptor value (UTF-8 text such as "Left"); nil when absent.
    package var userDescription: [UInt8]?

    /// Creates a reading.
    package init(value: [UInt8], userDescription: [UInt8]? = nil) {
        self.value = value
        self.userDescription = userDescription
    }

    /// Creates a reading with a textual description.
    package init(value: [UInt8], description: String?) {
        self.init(value: value, userDescription: description.map { Array($0.utf8) })
    }

    /// The description as text: up to the first NUL, lossy UTF-8, trimmed; nil when absent or empty.
    var descriptionText: String? {
        guard let userDescription else { return nil }
        let text = String(decoding: userDescription.prefix { $0 != 0 }, as: UTF8.self).trimmingWhiteSpace()
        return text.isEmpty ? nil : text
    }
}
