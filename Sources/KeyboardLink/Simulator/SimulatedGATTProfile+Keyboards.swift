import KeyboardLinkFirmware

/// The GATT databases of the simulated keyboards.
extension SimulatedGATTProfile {
    /// The Aula F87: Device Information with a PnP ID (USB 0x0C45:0x8009 version 0x0105) that disagrees with
    /// the `Modalias` BlueZ reports for it (`usb:v258Ap010Cd0102`), and one battery (85 %).
    package static var aulaF87: SimulatedGATTProfile {
        SimulatedGATTProfile(services: [
            deviceInformation(
                manufacturer: "AULA", model: "F87", serial: "F87-2024-000187", firmwareRevision: "1.0.2",
                hardwareRevision: "F87 rev B", softwareRevision: "2.4.1",
                pnpID: DeviceIdentity(source: .usb, vendorID: 0x0C45, productID: 0x8009, productVersion: 0x0105)
                    .pnpIDBytes),
            battery(level: 85),
        ])
    }

    /// The VGN 98Pro: no Device Information Service at all, one battery (60 %).
    package static var vgn98Pro: SimulatedGATTProfile {
        SimulatedGATTProfile(services: [battery(level: 60)])
    }

    /// A Corne running ZMK, split in two halves: Device Information (USB 0x1D50:0x615E, the ID ZMK uses), and two
    /// Battery Services whose levels are named "Left" (90 %) and "Right" (75 %) by user descriptions. Its reads are
    /// slow (30 ms each), like a keyboard on a long connection interval.
    package static var corneSplit: SimulatedGATTProfile {
        SimulatedGATTProfile(
            services: [
                deviceInformation(
                    manufacturer: "ZMK Project", model: "Corne", serial: "5E1F0C2A9B3D", firmwareRevision: "0.3.0",
                    hardwareRevision: "nice!nano v2", softwareRevision: "Zephyr 3.5.0",
                    pnpID: DeviceIdentity(source: .usb, vendorID: 0x1D50, productID: 0x615E, productVersion: 0x0300)
                        .pnpIDBytes),
                battery(level: 90, description: "Left"),
                battery(level: 75, description: "Right"),
            ],
            readDelay: .milliseconds(30))
    }
}
