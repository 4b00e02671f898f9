import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// kblinkd stops the discovery it started once `[Pairing] DiscoveryTimeout` passes. The real-stack rig
/// (docs/real-bluez.md) found every adapter still discovering minutes later: the timer cancelled its own task, so
/// its StopDiscovery calls failed before reaching BlueZ, and the scan's own StopDiscovery then found no session.
@Suite("Discovery stops by itself", .serialized)
struct DiscoveryTimeoutTests {
    @Test("StartDiscovery with nobody stopping it: BlueZ stops discovering after the timeout; a new scan works")
    func stopsByItself() async throws {
        try await withDaemon(devices: [.aulaF87], options: { $0.discoveryTimeout = .milliseconds(300) }) { harness in
            let client = try await harness.client()
            try await client.manager.call(MemberName("StartDiscovery"))
            #expect(
                await eventually(timeout: .seconds(10)) {
                    await harness.bluez.adapterList.allSatisfy { !$0.discovering }
                })
            // Nothing is left of the old session: the next scan starts and stops again.
            try await client.manager.call(MemberName("StartDiscovery"))
            #expect(await harness.bluez.adapterList.allSatisfy(\.discovering))
            #expect(
                await eventually(timeout: .seconds(10)) {
                    await harness.bluez.adapterList.allSatisfy { !$0.discovering }
                })
            await client.close()
        }
    }

    @Test(
        "an adapter still busy (InProgress) is asked again, and one that stays busy does not keep the others discovering"
    )
    func busyAdapters() async throws {
        try await withDaemon(devices: [.aulaF87], adapterCount: 3, options: { $0.discoveryTimeout = .seconds(60) }) {
            harness in
            let client = try await harness.client()
            defer { Task { await client.close() } }
            let adapters = await harness.bluez.adapterList.map(\.path)
            try #require(adapters.count == 3)
            try await client.manager.call(KBlinkContract.Manager.startDiscovery)
            #expect(await harness.bluez.adapterList.allSatisfy(\.discovering))
            // The middle adapter is busy twice, then stops: every adapter stops, and the call succeeds.
            await harness.bluez.answerStopDiscoveryInProgress(on: adapters[1], times: 2)
            try await client.manager.call(KBlinkContract.Manager.stopDiscovery)
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering })

            // Busy for good: the call fails with Busy, the other two stop, and a later stop tries the busy one again.
            try await client.manager.call(KBlinkContract.Manager.startDiscovery)
            await harness.bluez.answerStopDiscoveryInProgress(on: adapters[0], times: 1_000)
            await #expect {
                try await client.manager.call(KBlinkContract.Manager.stopDiscovery)
            } throws: { ($0 as? DBusError)?.name == KBlinkError.busy }
            #expect(await harness.bluez.adapterList.map(\.discovering) == [true, false, false])
            await harness.bluez.answerStopDiscoveryInProgress(on: adapters[0], times: 0)
            try await client.manager.call(KBlinkContract.Manager.stopDiscovery)
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering })
        }
    }
}
