import KeyboardLinkBlueZ

/// What one refresh read from a keyboard: the raw values, the reads that failed while the keyboard stayed
/// connected, and which characteristic reports each battery (to follow its notifications).
package struct FirmwareReadOutcome: Sendable, Equatable {
    /// One Battery Level characteristic and the part name it reports under (``BatteryPartNamer``).
    package struct BatteryCharacteristic: Sendable, Equatable {
        /// The part: `main`, `left`, `right`, `part2`...
        package var part: String
        /// The characteristic (0x2A19).
        package var characteristic: GATTCharacteristic

        /// Creates a pairing of part and characteristic.
        package init(part: String, characteristic: GATTCharacteristic) {
            self.part = part
            self.characteristic = characteristic
        }
    }

    /// The raw values.
    package var readings: FirmwareReadings
    /// One note per read that failed while the keyboard stayed connected (`serial number could not be read: ...`).
    package var failureNotes: [String]
    /// Every Battery Level characteristic with its part name, in handle order.
    package var batteryCharacteristics: [BatteryCharacteristic]

    /// Creates an outcome.
    package init(
        readings: FirmwareReadings, failureNotes: [String] = [], batteryCharacteristics: [BatteryCharacteristic] = []
    ) {
        self.readings = readings
        self.failureNotes = failureNotes
        self.batteryCharacteristics = batteryCharacteristics
    }

    /// The decoded information: ``FirmwareInfo/init(readings:vendorNames:)`` with the failed reads noted too.
    package func info(vendorNames: VendorNames) -> FirmwareInfo {
        var info = FirmwareInfo(readings: readings, vendorNames: vendorNames)
        info.notes += failureNotes
        return info
    }
}
