import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The real `kblink pair` binary against kblinkd's service and the simulated BlueZ on a private bus.
@Suite("kblink pair", .serialized)
struct PairCommandTests {
    /// The `--json` lines of a run, parsed.
    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    static func prompts(_ objects: [[String: Any]]) -> [String] {
        objects.filter { $0["event"] as? String == "prompt" }.map {
            "\($0["kind"] as? String ?? "?") \($0["code"] as? String ?? "?") \($0["entered"] as? Int ?? -1)"
        }
    }

    static func withPairingDaemon<T>(
        timings: SimulatedBlueZ.PairingTimings = .fast, _ body: (DaemonHarness) async throws -> T
    ) async throws -> T {
        try await withDaemon(devices: PairingFixtures.all) { harness in
            await harness.bluez.setPairingTimings(timings)
            return try await body(harness)
        }
    }

    static func child(_ harness: DaemonHarness, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(DaemonHarness.binary("kblink"), arguments + ["--bus", harness.bus.address])
    }

    /// A keyboard typed on so slowly that the pairing never ends by itself while a test cancels or restarts it
    /// (with 2 s a key, a loaded machine sometimes saw the pairing finish before the cancel reached it).
    static var slow: SimulatedBlueZ.PairingTimings {
        var timings = SimulatedBlueZ.PairingTimings.fast
        timings.keypress = .seconds(60)
        return timings
    }

    static let passkeyPrompts = (0...6).map { "display-passkey 004821 \($0)" }

    @Test(
        "each simulated keyboard through kblink pair --json: its prompts in order and the right end",
        arguments: [
            (PairingFixtures.blePasskey, passkeyPrompts, ""),
            (PairingFixtures.legacyPin, ["display-pincode"], ""),
            (PairingFixtures.justWorks, [], ""),
            (
                PairingFixtures.rejecting,
                (0...6).map { "display-passkey \(PairingFixtures.rejectingPasskey) \($0)" },
                KBlinkError.Code.authenticationFailed.errorName.rawValue
            ),
            (PairingFixtures.silent, [], KBlinkError.Code.authenticationFailed.errorName.rawValue),
        ])
    func eachKind(_ device: SimulatedDevice, _ expectedPrompts: [String], _ expectedError: String) async throws {
        try await Self.withPairingDaemon { harness in
            let result = try await harness.kblink(["pair", device.address.description, "--json"])
            let objects = try Self.objects(result.standardOutput)
            let prompts = Self.prompts(objects)
            if expectedPrompts == ["display-pincode"] {
                let pin = try #require(objects.first?["code"] as? String)
                #expect(prompts == ["display-pincode \(pin) 0"])
                #expect(pin.count == 6 && pin.allSatisfy(\.isNumber))
            } else {
                #expect(prompts == expectedPrompts)
            }
            let end = try #require(objects.last)
            #expect(end["event"] as? String == "finished")
            #expect(objects.filter { $0["event"] as? String == "finished" }.count == 1)
            #expect(end["address"] as? String == device.address.description)
            #expect(end["error"] as? String == expectedError, "\(end["message"] ?? "")")
            let state = try #require(await harness.bluez.device(device.address))
            if expectedError.isEmpty {
                #expect(result.status == 0, "\(result.standardError)")
                #expect(end["ok"] as? Bool == true)
                #expect(end["paired"] as? Bool == true && end["trusted"] as? Bool == true)
                #expect(end["connected"] as? Bool == true)
                #expect(state.paired && state.trusted && state.connected)
            } else {
                #expect(result.status == 1)
                #expect(end["ok"] as? Bool == false)
                #expect((end["message"] as? String)?.isEmpty == false)
                #expect(!state.paired && !state.trusted && !state.connected, "nothing half-paired or trusted")
            }
        }
    }

    @Test("plain lines when not on a terminal: the passkey, the typing, the end")
    func plainLines() async throws {
        try await Self.withPairingDaemon { harness in
            let result = try await harness.kblink(["pair", "DC:2C:26:00:00:03"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(
                result.lines == [
                    "Pairing with DC:2C:26:00:00:03… Ctrl-C cancels.",
                    "Type 004821 on the keyboard, then press Enter.",
                    "  1 of 6 typed", "  2 of 6 typed", "  3 of 6 typed", "  4 of 6 typed", "  5 of 6 typed",
                    "  6 of 6 typed: press Enter",
                    "Keychron K3 Pro (DC:2C:26:00:00:03) is paired, trusted and connected.",
                ])
            #expect(!result.standardOutput.contains("\u{1B}["), "no escape codes in a pipe")
        }
    }

    @Test("Ctrl-C cancels the pairing on the daemon: Canceled, exit 1, nothing paired or trusted")
    func controlC() async throws {
        try await Self.withPairingDaemon(timings: Self.slow) { harness in
            let device = PairingFixtures.slowPasskey
            let child = try Self.child(harness, ["pair", device.address.description, "--json"])
            #expect(await eventually { child.standardOutput.contains("\"event\":\"prompt\"") })
            child.signal(SIGINT)
            let result = await child.wait()
            #expect(result.status == 1)
            let end = try #require(try Self.objects(result.standardOutput).last)
            #expect(end["error"] as? String == KBlinkError.Code.canceled.errorName.rawValue)
            let state = try #require(await harness.bluez.device(device.address))
            #expect(!state.paired && !state.trusted)
            // BlueZ's and the daemon's ends of the cancel may land a moment after kblink's answer.
            #expect(await eventually { await harness.bluez.pairingsInProgress.isEmpty })
            #expect(await eventually { await harness.bluez.agentCalls.contains { $0.member == "Cancel" } })
            #expect(await eventually { await harness.service.pairing.activePairings.isEmpty })
        }
    }

    @Test("a second kblink pair for the same keyboard while one runs gets Busy; the first ends paired")
    func busy() async throws {
        // Seven keys of 4 s: the second kblink must reach the daemon while the first pairing runs.
        var timings = SimulatedBlueZ.PairingTimings.fast
        timings.keypress = .seconds(4)
        try await Self.withPairingDaemon(timings: timings) { harness in
            let device = PairingFixtures.slowPasskey
            let first = try Self.child(harness, ["pair", device.address.description, "--json"])
            #expect(await eventually { first.standardOutput.contains("\"event\":\"prompt\"") })
            let second = try await harness.kblink(["pair", "Slow Board", "--json"])
            #expect(second.status == 1)
            let end = try #require(try Self.objects(second.standardOutput).last)
            #expect(end["error"] as? String == KBlinkError.Code.busy.errorName.rawValue)
            #expect((end["message"] as? String)?.contains("being paired already") == true)
            let done = await first.wait()
            #expect(done.status == 0, "\(done.standardError)")
            let state = try #require(await harness.bluez.device(device.address))
            #expect(state.paired && state.trusted && state.connected)
        }
    }

    @Test("two keyboards pair one after the other without restarting anything")
    func oneAfterTheOther() async throws {
        try await Self.withPairingDaemon { harness in
            for device in [PairingFixtures.blePasskey, PairingFixtures.legacyPin, PairingFixtures.justWorks] {
                let result = try await harness.kblink(["pair", device.address.description, "--json"])
                #expect(result.status == 0, "\(device.name): \(result.standardOutput) \(result.standardError)")
                let state = try #require(await harness.bluez.device(device.address))
                #expect(state.paired && state.trusted && state.connected)
            }
        }
    }

    @Test("BlueZ restarting mid-pairing: exit 1 saying so, nothing kept, and pairing works again afterwards")
    func blueZRestart() async throws {
        try await Self.withPairingDaemon(timings: Self.slow) { harness in
            let device = PairingFixtures.slowPasskey
            let child = try Self.child(harness, ["pair", device.address.description, "--json"])
            #expect(await eventually { child.standardOutput.contains("\"event\":\"prompt\"") })
            try await harness.bluez.restart()
            let result = await child.wait()
            #expect(result.status == 1)
            let end = try #require(try Self.objects(result.standardOutput).last)
            #expect(end["error"] as? String == KBlinkError.Code.failed.errorName.rawValue)
            #expect((end["message"] as? String)?.contains("BlueZ stopped") == true, "\(end["message"] ?? "")")
            let state = try #require(await harness.bluez.device(device.address))
            #expect(!state.paired && !state.trusted)

            await harness.bluez.setPairingTimings(.fast)
            let daemon = harness.serviceConnection.uniqueName
            #expect(await eventually { await harness.bluez.registeredAgents[daemon] != nil })
            let again = try await harness.kblink(["pair", device.address.description, "--json"])
            #expect(again.status == 0, "\(again.standardOutput)")
            #expect(Self.prompts(try Self.objects(again.standardOutput)).count == 7)
        }
    }

    @Test("--timeout gives up: the pairing is canceled on the daemon and the message says why")
    func timeout() async throws {
        var timings = SimulatedBlueZ.PairingTimings.fast
        timings.authenticationTimeout = .seconds(30)
        try await Self.withPairingDaemon(timings: timings) { harness in
            let result = try await harness.kblink(["pair", "Sleeping Board", "--timeout", "1"])
            #expect(result.status == 1)
            #expect(result.standardError.contains("no pairing within 1 s"), "\(result.standardError)")
            #expect(await harness.bluez.pairingsInProgress.isEmpty)
            let state = try #require(await harness.bluez.device(PairingFixtures.silent.address))
            #expect(!state.paired && !state.trusted)
        }
    }

    @Test(
        "exit codes: 4 for an unknown device, 2 for usage, 1 for a device that is not a keyboard",
        arguments: [
            (["pair", "Nonexistent"], Int32(4)), (["pair"], Int32(2)), (["pair", "a", "b"], Int32(2)),
            (["pair", "Plain", "--timeout", "never"], Int32(2)), (["pair", "5A:02:0C:00:00:01"], Int32(1)),
        ])
    func exitCodes(_ arguments: [String], _ expected: Int32) async throws {
        try await Self.withPairingDaemon { harness in
            let result = try await harness.kblink(arguments)
            #expect(result.status == expected, "\(arguments): \(result.standardError)")
            #expect(!result.standardError.isEmpty)
        }
    }
}
