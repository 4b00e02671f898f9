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
}
