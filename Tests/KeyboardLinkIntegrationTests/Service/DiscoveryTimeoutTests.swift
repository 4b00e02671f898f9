import KeyboardLink
import KeyboardLinkTestSupport
import Synchronization
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
            #expect(await eventually { await harness.bluez.adapterList.allSatisfy { !$0.discovering } })
            // Nothing is left of the old session: the next scan starts and stops again. BlueZ's Discovering
            // announcements say so in order (checking the adapter right after StartDiscovery raced the 300 ms timer on
            // a loaded machine).
            let adapter = try #require(await harness.bluez.adapterList.first?.path)
            let announced = Mutex<[Bool]>([])
            let changes = try await client.connection.subscribe(
                to: MatchRule(
                    path: adapter, interface: .properties, member: MemberName("PropertiesChanged"),
                    arg0: BlueZ.adapterInterface.rawValue))
            let watcher = Task {
                for await message in changes {
                    if let flag = message.body[1].stringDictionary?["Discovering"]?.boolValue {
                        announced.withLock { $0.append(flag) }
                    }
                }
            }
            defer { watcher.cancel() }
            try await client.manager.call(MemberName("StartDiscovery"))
            await eventually(
                "Discovering true, then false", { announced.withLock { $0 } },
                satisfies: { seen in seen.firstIndex(of: true).map { seen[$0...].contains(false) } ?? false })
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering })
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
            } throws: { ($0 as? KBlinkError)?.code == .busy }
            #expect(await harness.bluez.adapterList.map(\.discovering) == [true, false, false])
            await harness.bluez.answerStopDiscoveryInProgress(on: adapters[0], times: 0)
            try await client.manager.call(KBlinkContract.Manager.stopDiscovery)
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering })
        }
    }

    @Test(
        "a stop the controller refuses (bluetoothd forgets the session, Discovering stays true) is started and stopped again"
    )
    func refusedStop() async throws {
        try await withDaemon(devices: [.aulaF87], adapterCount: 2, options: { $0.discoveryTimeout = .seconds(60) }) {
            harness in
            let client = try await harness.client()
            defer { Task { await client.close() } }
            let adapters = await harness.bluez.adapterList.map(\.path)
            try #require(adapters.count == 2)
            try await client.manager.call(KBlinkContract.Manager.startDiscovery)
            #expect(await harness.bluez.adapterList.allSatisfy(\.discovering))
            await harness.bluez.rejectNextStopDiscovery(on: adapters[0])
            try await client.manager.call(KBlinkContract.Manager.stopDiscovery)
            #expect(await harness.bluez.adapterList.map(\.discovering) == [false, false])
            #expect(await harness.bluez.discoveringWithoutSession.isEmpty)
        }
    }
}
