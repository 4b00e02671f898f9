extension FirmwareInfo {
    /// Decodes one refresh's raw values. Never throws: each malformed value is dropped (or kept lossily, for
    /// strings) and explained in ``notes``.
    ///
    /// - Strings: see ``DeviceInformationField/decode(_:)``.
    /// - Identity: the PnP ID wins over `Modalias`; a disagreement becomes a note
    ///   (``DeviceIdentity/merge(pnpID:modalias:)``).
    /// - Vendor name: from `vendorNames` for the identity's source.
    /// - Batteries: each Battery Level characteristic is named by ``BatteryPartNamer`` and validated (one byte,
    ///   0-100). `Battery1.Percentage` is BlueZ's own reading of the first Battery Service, so it repeats one of those
    ///   characteristics: it is used, as the `main` part, only when no Battery Level characteristic gave a valid
    ///   reading (BlueZ hides the Battery Service it handles itself from the GATT objects on many versions).
    package init(readings: FirmwareReadings, vendorNames: VendorNames) {
        self.init(readAt: readings.readAt)
        var notes: [String] = []

        for field in DeviceInformationField.allCases {
            guard let bytes = readings.strings[field] else { continue }
            let decoded = field.decode(bytes)
            self[field] = decoded.value
            if let note = decoded.note { notes.append(note) }
        }

        var pnpIdentity: DeviceIdentity?
        if let bytes = readings.pnpID {
            do { pnpIdentity = try DeviceIdentity(pnpID: bytes) } catch { notes.append(error.description) }
        }
        var modaliasIdentity: DeviceIdentity?
        if let text = readings.modalias {
            do { modaliasIdentity = try DeviceIdentity(modalias: text) } catch { notes.append(error.description) }
        }
        let merged = DeviceIdentity.merge(pnpID: pnpIdentity, modalias: modaliasIdentity)
        if let note = merged.note { notes.append(note) }
        identity = merged.value
        vendorName = merged.value.flatMap { vendorNames.name(for: $0) }

        let decodedBatteries = Self.batteries(readings, notes: &notes)
        batteries = decodedBatteries
        self.notes = notes
    }

    private static func batteries(_ readings: FirmwareReadings, notes: inout [String]) -> [BatteryReading] {
        let names = BatteryPartNamer.names(userDescriptions: readings.batteryLevels.map(\.descriptionText))
        let several = readings.batteryLevels.count > 1
        var result: [BatteryReading] = []
        for (name, raw) in zip(names, readings.batteryLevels) {
            do {
                result.append(BatteryReading(part: name, level: try BatteryLevel(characteristicValue: raw.value)))
            } catch {
                notes.append(several ? "\(name): \(error.description)" : error.description)
            }
        }
        if let percentage = readings.battery1Percentage, result.isEmpty {
            do {
                result.append(BatteryReading(part: "main", level: try BatteryLevel(percentage: percentage)))
            } catch {
                notes.append(error.description)
            }
        }
        return result
    }
}
