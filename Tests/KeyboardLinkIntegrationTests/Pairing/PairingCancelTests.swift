import Foundation
import Glibc
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Issue 27 item 7: `CancelPairing` ends a pairing only for the connection that called `Pair`, or for root. polkit
/// (python-dbusmock's `polkitd`) allows the stranger (`nobody`, through setpriv) to pair, so what refuses it is
/// the pairing's owner check, not the authorization. Must run as root.
@Suite("CancelPairing only from the Pair caller or root", .serialized)
struct PairingCancelTests {
    init() throws {
        try #require(getuid() == 0, "the stranger runs as nobody through setpriv, which needs root")
    }

    @Test("Another user allowed to pair cannot cancel a pairing it did not start; root from another connection can")
    func onlyPairCallerOrRoot() async throws {
        var slow = SimulatedBlueZ.PairingTimings.fast
        slow.keypress = .seconds(2)
        try await withDaemon(
            devices: PairingFixtures.all, options: { $0.authorization = .polkit(fallbackGroup: "nogroup") }
        ) { harness in
            await harness.bluez.setPairingTimings(slow)
            let polkit = try await PolkitMock(bus: harness.bus)
            defer { Task { await polkit.stop() } }
            try await polkit.allow([.pair])

            let owner = try await harness.client()
            defer { Task { await owner.close() } }
            let device = PairingFixtures.slowPasskey
            let stream = try await owner.pairing(
                try await owner.pairingTarget(device.address.description), timeout: .seconds(60))
            var iterator = stream.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first == .prompt(PairingPromptRelay(kind: .displayPasskey, code: "765432", entered: 0)))

            let stranger = try OutsideCaller()
            let cancel = OutsideCaller.Call(
                path: KBlink.managerPath.rawValue, interface: KBlink.managerInterface.rawValue,
                method: "CancelPairing", signature: "(s)", arguments: [.string(device.address.description)])
            let refused = try await stranger.run([cancel], on: harness.bus)
            #expect(
                refused.answers.first?.error == KBlinkError.Code.accessDenied.errorName.rawValue, "\(refused.answers)")
            #expect(refused.answers.first?.message?.contains("or root, may cancel") == true, "\(refused.answers)")
            #expect(!(await harness.bluez.pairingsInProgress.isEmpty), "the refused cancel ended the pairing")

            let root = try await harness.client()
            defer { Task { await root.close() } }
            try await root.cancelPairing(device.address.description)
            var end: PairingResult?
            while let event = await iterator.next() {
                if case .ended(let result) = event { end = result }
            }
            #expect(end?.error?.code == .canceled)
            let state = try #require(await harness.bluez.device(device.address))
            #expect(!state.paired && !state.trusted)
        }
    }
}
