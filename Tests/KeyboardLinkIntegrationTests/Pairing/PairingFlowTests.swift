import Foundation
import KeyboardLink
import Testing

/// The daemon's Pair/CancelPairing through the client library, against the simulated BlueZ.
@Suite("Pairing through the client: prompts, ends and undo")
struct PairingFlowTests {
    static func withPairingDaemon<T>(
        timings: SimulatedBlueZ.PairingTimings = .fast, _ body: (DaemonHarness) async throws -> T
    ) async throws -> T {
        try await withDaemon(devices: PairingFixtures.all) { harness in
            await harness.bluez.setPairingTimings(timings)
            return try await body(harness)
        }
    }

    /// Collects every event of one pairing.
    static func events(_ stream: AsyncStream<PairingEvent>) async -> (prompts: [PairingPromptRelay], end: PairingResult?) {
        var prompts: [PairingPromptRelay] = []
        for await event in stream {
            switch event {
            case .prompt(let prompt): prompts.append(prompt)
            case .ended(let result): return (prompts, result)
            }
        }
        return (prompts, nil)
    }

    @Test("a BLE keyboard found by a scan: the passkey, each digit typed, then paired, trusted and connected")
    func blePasskey() async throws {
        try await Self.withPairingDaemon { harness in
            let client = try await harness.client()
            let device = PairingFixtures.blePasskey
            let target = try await client.pairingTarget(device.address.description)
            let (prompts, end) = await Self.events(try await client.pairing(target, timeout: .seconds(30)))
            #expect(end?.error == nil, "\(String(describing: end?.error))")
            #expect(prompts.map(\.kind) == Array(repeating: .displayPasskey, count: 7))
            #expect(prompts.map(\.code) == Array(repeating: "004821", count: 7))
            #expect(prompts.map(\.entered) == [0, 1, 2, 3, 4, 5, 6])
            let state = try #require(await harness.bluez.device(device.address))
            #expect(state.paired && state.trusted && state.connected)
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering }, "the scan was stopped")
            await client.close()
        }
    }
}
