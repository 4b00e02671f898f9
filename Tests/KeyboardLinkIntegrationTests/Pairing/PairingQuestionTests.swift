import Foundation
import Glibc
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Numeric comparison and codeless pairing through `kblink pair`: the question goes to the person who asked for
/// the pairing, and only to them; their answer decides. Must run as root (the bystander runs through setpriv).
@Suite("Pairing questions go to the Pair caller and its answer decides", .serialized)
struct PairingQuestionTests {
    init() throws {
        try #require(getuid() == 0, "the bystander runs as nobody through setpriv, which needs root")
    }

    /// Runs `kblink pair DEVICE` with `answer` on its standard input while a stranger listens to every signal.
    static func pair(_ device: SimulatedDevice, answering answer: String) async throws -> (
        result: ProcessResult, bystander: OutsideCaller.Outcome, paired: Bool
    ) {
        try await PairCommandTests.withPairingDaemon { harness in
            let bystander = try OutsideCaller()
            let ready = bystander.directory.path + "/listening"
            let listening = Task { try await bystander.run([], on: harness.bus, listen: 6, ready: ready) }
            #expect(await eventually { FileManager.default.fileExists(atPath: ready) })
            let result = try await runProcess(
                DaemonHarness.binary("kblink"), ["pair", device.address.description, "--bus", harness.bus.address],
                input: answer, timeout: .seconds(60))
            let heard = try await listening.value
            let paired = try await harness.client().keyboards().first { $0.address == device.address.description }?
                .paired
            return (result, heard, paired ?? false)
        }
    }

    @Test("yes to 'does the keyboard show 246810?' pairs; the bystander hears neither the question nor the end")
    func comparisonConfirmed() async throws {
        let (result, bystander, paired) = try await Self.pair(PairingFixtures.comparing, answering: "y\n")
        #expect(result.standardOutput.contains("Does the keyboard show 246810? [y/N]"), "\(result.standardOutput)")
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(paired)
        #expect(!bystander.signals.contains { $0.hasPrefix("PairingPrompt") || $0.hasPrefix("PairingFinished") })
        #expect(!bystander.everything.contains("246810"))
        // Control: the bystander did hear broadcasts meanwhile (the keyboard's properties changing).
        #expect(bystander.signals.contains { $0.hasPrefix("PropertiesChanged") })
    }

    @Test("no, or no answer at all, refuses the pairing and keeps nothing", arguments: ["n\n", ""])
    func comparisonRefused(answer: String) async throws {
        let (result, _, paired) = try await Self.pair(PairingFixtures.comparing, answering: answer)
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.contains("was refused"), "\(result.standardError)")
        #expect(!paired)
    }

    @Test("a keyboard that pairs without a code is allowed only when the person says yes")
    func codelessAuthorized() async throws {
        let (result, _, paired) = try await Self.pair(PairingFixtures.authorizing, answering: "yes\n")
        #expect(result.standardOutput.contains("Allow the keyboard to pair without a code? [y/N]"))
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(paired)
    }

    @Test("only the Pair caller may answer: another connection gets AccessDenied, and nothing waits after the end")
    func othersCannotAnswer() async throws {
        try await PairCommandTests.withPairingDaemon { harness in
            let device = PairingFixtures.comparing
            let owner = try await harness.client()
            defer { Task { await owner.close() } }
            let target = try await owner.pairingTarget(device.address.description)
            let events = try await owner.pairing(target, timeout: .seconds(60))
            var iterator = events.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first == .prompt(PairingPromptRelay(kind: .confirmPasskey, code: "246810")))
            let other = try await harness.client()
            defer { Task { await other.close() } }
            await #expect {
                try await other.confirmPairing(device.address.description, accept: true)
            } throws: { ($0 as? KBlinkError)?.code == .accessDenied }
            try await owner.confirmPairing(device.address.description, accept: true)
            var end: PairingEvent?
            while let event = await iterator.next() { end = event }
            guard case .ended(let result)? = end else {
                Issue.record("no end: \(String(describing: end))")
                return
            }
            #expect(result.ok, "\(String(describing: result.error))")
            await #expect {
                try await owner.confirmPairing(device.address.description, accept: true)
            } throws: { ($0 as? KBlinkError)?.code == .notFound }
        }
    }
}
