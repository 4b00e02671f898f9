import KeyboardLinkBlueZ
import KeyboardLinkSupport

/// Reads what a keyboard offers about itself over GATT: every Device Information characteristic (0x180A), every
/// Battery Level (0x2A19) and its user description (0x2901), all at once in one task group, never one after another.
///
/// A keyboard without a Device Information or Battery Service is normal: there is simply nothing to read there.
/// A keyboard may show two Device Information Services: bluetoothd adds its own (only a PnP ID, BlueZ's USB
/// 0x1D6B:0x0246) to the GATT database of an adapter that plays a keyboard, unless its `DeviceID` is off. Every
/// one is read, and each field comes from the service that carries the most strings (the keyboard's own), the PnP
/// ID from the first such service whose PnP ID is not BlueZ's (``isBlueZOwnPnPID(_:)``).
/// A read that fails while the keyboard stays connected becomes a note; a keyboard that disconnects during the
/// reads makes the whole refresh fail, so that incomplete values never replace complete ones.
package struct FirmwareReader: Sendable {
    /// The GATT client of the keyboard.
    package var client: GATTClient
    /// How long to wait for BlueZ to resolve the keyboard's services before reading.
    package var servicesTimeout: Duration
    /// How long the keyboard's GATT objects must stay unchanged before they count as settled, and how long to
    /// wait past that for a Device Information or Battery Service the keyboard lists in its `UUIDs` but BlueZ has
    /// not exported yet (`GATTClient.waitForGATTObjectsToSettle`).
    package var settleQuiet: Duration
    package var listedServiceWait: Duration

    /// A reader over `client`.
    package init(
        client: GATTClient, servicesTimeout: Duration = .seconds(10), settleQuiet: Duration = .milliseconds(400),
        listedServiceWait: Duration = .seconds(2)
    ) {
        self.client = client
        self.servicesTimeout = servicesTimeout
        self.settleQuiet = settleQuiet
        self.listedServiceWait = listedServiceWait
    }

    /// One value to read.
    enum Job: Sendable {
        /// A string of the `service`-th Device Information Service (in handle order).
        case string(DeviceInformationField, GATTCharacteristic, service: Int)
        /// The PnP ID of the `service`-th Device Information Service.
        case pnpID(GATTCharacteristic, service: Int)
        case batteryLevel(Int, GATTCharacteristic)
        case batteryDescription(Int, GATTDescriptor)

        var label: String {
            switch self {
            case .string(let field, _, let service):
                service == 0 ? field.label : "\(field.label) (service \(service + 1))"
            case .pnpID(_, let service): service == 0 ? "PnP ID" : "PnP ID (service \(service + 1))"
            case .batteryLevel(let index, _): "battery level \(index + 1)"
            case .batteryDescription(let index, _): "battery level \(index + 1) description"
            }
        }

        func run(_ client: GATTClient) async -> Result<[UInt8], GATTError> {
            do {
                switch self {
                case .string(_, let characteristic, _), .pnpID(let characteristic, _),
                    .batteryLevel(_, let characteristic):
                    return .success(try await client.read(characteristic))
                case .batteryDescription(_, let descriptor):
                    return .success(try await client.read(descriptor))
                }
            } catch {
                return .failure(error)
            }
        }
    }

    /// The reads to make for the GATT objects in `database`.
    static func jobs(_ database: GATTDatabase) -> (jobs: [Job], batteries: [GATTCharacteristic]) {
        var jobs: [Job] = []
        for (index, service) in database.services(.deviceInformation).enumerated() {
            var seen = Set<BluetoothUUID>()
            for characteristic in database.characteristics(of: service) where seen.insert(characteristic.uuid).inserted
            {
                if let field = DeviceInformationField(uuid: characteristic.uuid) {
                    jobs.append(.string(field, characteristic, service: index))
                } else if characteristic.uuid == .pnpID {
                    jobs.append(.pnpID(characteristic, service: index))
                }
            }
        }
        let batteries = database.characteristics(.batteryLevel)
        for (index, characteristic) in batteries.enumerated() {
            jobs.append(.batteryLevel(index, characteristic))
            if let descriptor = database.descriptor(.characteristicUserDescription, of: characteristic) {
                jobs.append(.batteryDescription(index, descriptor))
            }
        }
        return (jobs, batteries)
    }

    /// Waits for the keyboard's services, reads everything in parallel and returns the raw values.
    /// - Parameters:
    ///   - modalias: BlueZ's `Device1.Modalias`, kept in the readings.
    ///   - battery1Percentage: BlueZ's `Battery1.Percentage`, kept in the readings.
    ///   - now: the clock that stamps the readings.
    /// - Throws: ``FirmwareReadError`` when the keyboard is not connected, or disconnects during the reads.
    package func read(
        modalias: String?, battery1Percentage: UInt8?, now: @Sendable () -> WallClockTime = { .now() }
    ) async throws(FirmwareReadError) -> FirmwareReadOutcome {
        do {
            try await client.waitUntilServicesResolved(timeout: servicesTimeout)
        } catch {
            throw FirmwareReadError(.notConnected, cause: error)
        }
        await client.waitForGATTObjectsToSettle(
            quiet: settleQuiet, limit: max(.seconds(5), settleQuiet + listedServiceWait + .seconds(3)),
            expected: [.deviceInformation, .batteryService], listedWait: listedServiceWait)
        let (jobs, batteries) = Self.jobs(await client.database())
        let client = self.client
        let results = await withTaskGroup(of: (Job, Result<[UInt8], GATTError>).self) { group in
            for job in jobs {
                group.addTask { (job, await job.run(client)) }
            }
            var results: [(Job, Result<[UInt8], GATTError>)] = []
            for await result in group { results.append(result) }
            return results
        }

        var serviceStrings: [Int: [DeviceInformationField: [UInt8]]] = [:]
        var pnpIDs: [Int: [UInt8]] = [:]
        var levels: [Int: [UInt8]] = [:]
        var descriptions: [Int: [UInt8]] = [:]
        var failures: [(Job, GATTError)] = []
        for (job, result) in results {
            switch result {
            case .failure(let error):
                failures.append((job, error))
            case .success(let bytes):
                switch job {
                case .string(let field, _, let service): serviceStrings[service, default: [:]][field] = bytes
                case .pnpID(_, let service): pnpIDs[service] = bytes
                case .batteryLevel(let index, _): levels[index] = bytes
                case .batteryDescription(let index, _): descriptions[index] = bytes
                }
            }
        }
        try await checkStillConnected(after: failures.map(\.1))
        let (strings, pnpID) = Self.deviceInformation(strings: serviceStrings, pnpIDs: pnpIDs)

        // A Battery Level that could not be read keeps its place (its part name depends on the order), and is
        // left out of the levels afterwards.
        let allLevels = batteries.indices.map { index in
            RawBatteryLevel(value: levels[index] ?? [], userDescription: descriptions[index])
        }
        let names = BatteryPartNamer.names(userDescriptions: allLevels.map(\.descriptionText))
        let readings = FirmwareReadings(
            strings: strings, pnpID: pnpID, modalias: modalias,
            batteryLevels: batteries.indices.filter { levels[$0] != nil }.map { allLevels[$0] },
            battery1Percentage: battery1Percentage, readAt: now())
        let order = jobs.map(\.label)
        let notes =
            failures
            .sorted { (order.firstIndex(of: $0.0.label) ?? 0) < (order.firstIndex(of: $1.0.label) ?? 0) }
            .map { job, error in "\(job.label) could not be read: \(error.advice)" }
        return FirmwareReadOutcome(
            readings: readings, failureNotes: notes,
            batteryCharacteristics: zip(names, batteries).map { .init(part: $0, characteristic: $1) })
    }

    /// The Device Information of a keyboard that may show several services (keyed by their index in handle
    /// order): services ranked by how many strings they gave (most first, then handle order); each string from
    /// the first ranked service that has it; the PnP ID from the first ranked service whose PnP ID is not
    /// bluetoothd's own, else from the first that has one.
    static func deviceInformation(
        strings: [Int: [DeviceInformationField: [UInt8]]], pnpIDs: [Int: [UInt8]]
    ) -> (strings: [DeviceInformationField: [UInt8]], pnpID: [UInt8]?) {
        let ranked = Set(strings.keys).union(pnpIDs.keys).sorted { lhs, rhs in
            let left = strings[lhs]?.count ?? 0
            let right = strings[rhs]?.count ?? 0
            return left != right ? left > right : lhs < rhs
        }
        var merged: [DeviceInformationField: [UInt8]] = [:]
        for service in ranked {
            merged.merge(strings[service] ?? [:]) { kept, _ in kept }
        }
        let candidates = ranked.compactMap { pnpIDs[$0] }
        return (merged, candidates.first { !isBlueZOwnPnPID($0) } ?? candidates.first)
    }

    /// Whether `bytes` is the PnP ID bluetoothd serves in its own Device Information Service when its `DeviceID`
    /// setting is left at the default: USB-IF vendor 0x1D6B (Linux Foundation), product 0x0246 (BlueZ).
    static func isBlueZOwnPnPID(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 5 && bytes[0] == 0x02 && bytes[1] == 0x6B && bytes[2] == 0x1D && bytes[3] == 0x46
            && bytes[4] == 0x02
    }

    /// Throws when a failed read means the link dropped: an error that says so, or BlueZ reporting the device
    /// disconnected (or gone) once the reads are over.
    private func checkStillConnected(after errors: [GATTError]) async throws(FirmwareReadError) {
        guard let first = errors.first else { return }
        if let lost = errors.first(where: \.meansDisconnected) {
            throw FirmwareReadError(.disconnectedDuringRead, cause: lost)
        }
        let connected: Bool
        do {
            connected = try await client.isDeviceConnected()
        } catch {
            throw FirmwareReadError(.disconnectedDuringRead, cause: error)
        }
        if !connected { throw FirmwareReadError(.disconnectedDuringRead, cause: first) }
    }
}
