import Foundation
import KeyboardLink
import Testing

/// bluetoothd 5.66 announces `ServicesResolved` before the `InterfacesAdded` of the connection's GATT objects. The
/// real-stack rig found the firmware read on connection starting at `ServicesResolved` and seeing only the first
/// services: no Device Information strings and no Battery Levels. The reader now waits for the objects to settle.
@Suite("GATT objects announced after ServicesResolved", .serialized)
struct ServicesResolvedFirstTests {
    @Test("a split keyboard that connects: every Device Information field and both halves' batteries")
    func readOnConnectSeesEveryService() async throws {
        var corne = SimulatedDevice.corneSplit
        corne.connected = false
        // The reader starts once the GATT objects have not changed for 400 ms (and a listed service is waited for 2 s
        // more). The simulated BlueZ exports them one by one from this test process; starved, it left more than
        // 400 ms between the two Battery Services, and the read saw only the left half. What is checked here is the
        // order of the announcements, not those budgets: generous ones.
        try await withFirmwareDaemon(
            devices: [corne],
            configure: {
                $0.firmwareSettleQuiet = .seconds(3)
                $0.firmwareListedServiceWait = .seconds(60)
            }
        ) { daemon in
            await daemon.bluez.setAnnouncesServicesResolvedFirst(true)
            let start = WallClockTime.now()
            try await daemon.bluez.setConnected(corne.address, true)
            #expect(try await daemon.waitForRead(corne.address, after: start))
            let info = try await daemon.infoJSON(corne.address.description)
            #expect(try jsonText(info, ["manufacturer"]) == "\"ZMK Project\"")
            #expect(try jsonText(info, ["model"]) == "\"Corne\"")
            #expect(try jsonText(info, ["vendor", "id"]) == "\"0x1d50\"")
            let battery = try #require(info["battery"] as? [[String: Any]])
            #expect(battery.compactMap { $0["part"] as? String }.sorted() == ["left", "right"])
        }
    }
}
