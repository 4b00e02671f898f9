import KeyboardLink
import Testing

/// A keyboard served by bluetoothd shows two Device Information Services: bluetoothd's own (only BlueZ's PnP ID)
/// first, then the keyboard's. Found by the real-stack rig (docs/real-bluez.md).
extension GATTClientTests {
    @Test("two Device Information Services: the keyboard's strings and PnP ID, not bluetoothd's PnP ID")
    func readerWithBlueZDeviceInformation() async throws {
        var corne = SimulatedDevice.corneSplit
        corne.gatt = corne.gatt?.servedByBluetoothd()
        try await withGATT([corne]) { _, client in
            let outcome = try await FirmwareReader(client: client).read(modalias: nil, battery1Percentage: nil)
            #expect(String(decoding: outcome.readings.strings[.manufacturer] ?? [], as: UTF8.self) == "ZMK Project")
            #expect(String(decoding: outcome.readings.strings[.model] ?? [], as: UTF8.self) == "Corne")
            #expect(outcome.readings.strings.count == 6)
            let identity = try DeviceIdentity(pnpID: try #require(outcome.readings.pnpID))
            #expect(
                identity == DeviceIdentity(source: .usb, vendorID: 0x1D50, productID: 0x615E, productVersion: 0x0300))
            #expect(outcome.failureNotes.isEmpty)
        }
    }

    @Test("bluetoothd's Device Information alone: its PnP ID is what there is")
    func readerWithOnlyBlueZDeviceInformation() async throws {
        var corne = SimulatedDevice.corneSplit
        corne.gatt = SimulatedGATTProfile(services: [SimulatedGATTProfile.blueZDeviceInformation])
        try await withGATT([corne]) { _, client in
            let outcome = try await FirmwareReader(client: client).read(modalias: nil, battery1Percentage: nil)
            #expect(outcome.readings.strings.isEmpty)
            let identity = try DeviceIdentity(pnpID: try #require(outcome.readings.pnpID))
            #expect(identity.vendorID == 0x1D6B && identity.productID == 0x0246)
        }
    }
}
