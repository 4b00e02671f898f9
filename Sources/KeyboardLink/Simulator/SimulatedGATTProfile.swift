import KeyboardLinkBlueZ

/// The GATT database a simulated keyboard serves once connected: its services, how slowly it answers reads,
/// and the faults it injects.
package struct SimulatedGATTProfile: Sendable, Equatable {
    /// The primary services, in handle order.
    package var services: [SimulatedGATTService]
    /// How long each `ReadValue` takes (a real link takes one or more connection intervals, 7.5-50 ms).
    package var readDelay: Duration
    /// Faults to inject.
    package var faults: SimulatedGATTFaults
    /// The ATT MTU reported by characteristics that do not limit their read chunks.
    package var mtu: UInt16

    /// Creates a profile.
    package init(
        services: [SimulatedGATTService], readDelay: Duration = .zero, faults: SimulatedGATTFaults = .init(),
        mtu: UInt16 = 247
    ) {
        self.services = services
        self.readDelay = readDelay
        self.faults = faults
        self.mtu = mtu
    }

    /// A Device Information Service (0x180A) holding a characteristic for each value given (nil: absent).
    package static func deviceInformation(
        manufacturer: String? = nil, model: String? = nil, serial: String? = nil, firmwareRevision: String? = nil,
        hardwareRevision: String? = nil, softwareRevision: String? = nil, pnpID: [UInt8]? = nil
    ) -> SimulatedGATTService {
        let strings: [(BluetoothUUID, String?)] = [
            (.manufacturerName, manufacturer), (.modelNumber, model), (.serialNumber, serial),
            (.firmwareRevision, firmwareRevision), (.hardwareRevision, hardwareRevision),
            (.softwareRevision, softwareRevision),
        ]
        var characteristics = strings.compactMap { uuid, text in
            text.map { SimulatedGATTCharacteristic(uuid: uuid, value: Array($0.utf8)) }
        }
        if let pnpID { characteristics.append(SimulatedGATTCharacteristic(uuid: .pnpID, value: pnpID)) }
        return SimulatedGATTService(uuid: .deviceInformation, characteristics: characteristics)
    }

    /// A Battery Service (0x180F) with one Battery Level (0x2A19, read and notify), named by a Characteristic
    /// User Description (0x2901) when `description` is given.
    package static func battery(level: UInt8, description: String? = nil) -> SimulatedGATTService {
        SimulatedGATTService(
            uuid: .batteryService,
            characteristics: [
                SimulatedGATTCharacteristic(
                    uuid: .batteryLevel, value: [level], flags: [.read, .notify],
                    descriptors: description.map { [.userDescription($0)] } ?? [])
            ])
    }

    /// The value of the `occurrence`-th characteristic (0-based, in handle order) with `uuid`; nil when there is
    /// none.
    package func value(of uuid: BluetoothUUID, occurrence: Int = 0) -> [UInt8]? {
        characteristicIndices(uuid).dropFirst(occurrence).first.map {
            services[$0.service].characteristics[$0.characteristic].value
        }
    }

    /// The profile with the value of the `occurrence`-th characteristic with `uuid` replaced (unchanged when
    /// there is no such characteristic).
    package func replacingValue(of uuid: BluetoothUUID, occurrence: Int = 0, with value: [UInt8])
        -> SimulatedGATTProfile
    {
        var profile = self
        if let index = characteristicIndices(uuid).dropFirst(occurrence).first {
            profile.services[index.service].characteristics[index.characteristic].value = value
        }
        return profile
    }

    /// The profile serving the malformed values the issue lists: a PnP ID of 5 bytes, a serial number that is not
    /// UTF-8 and a first battery level of 250.
    package func withMalformedValues() -> SimulatedGATTProfile {
        replacingValue(of: .pnpID, with: [0x02, 0x45, 0x0C, 0x09, 0x80])
            .replacingValue(of: .serialNumber, with: [0x46, 0x38, 0x37, 0xFF, 0xFE, 0x2D, 0x31])
            .replacingValue(of: .batteryLevel, with: [250])
    }

    /// Positions of the characteristics with `uuid`, in handle order.
    func characteristicIndices(_ uuid: BluetoothUUID) -> [(service: Int, characteristic: Int)] {
        var result: [(service: Int, characteristic: Int)] = []
        for (serviceIndex, service) in services.enumerated() {
            for (index, characteristic) in service.characteristics.enumerated() where characteristic.uuid == uuid {
                result.append((serviceIndex, index))
            }
        }
        return result
    }
}
